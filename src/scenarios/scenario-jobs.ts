/**
 * The jobs of every registered scenario, imported where a program needs
 * them: the child entry (src/launchers/scenario-child.ts) its child job
 * kinds, `inferbench worker` its queue job kinds and runners. Each
 * scenario's registration says how to import its own (`childJobs`,
 * `queueJobs`), so these entry points name no scenario and a new built-in
 * is still one line of builtin-scenarios.ts.
 */
import './builtin-scenarios.js';
import { registeredScenarios } from './scenario-registry.js';

/** Registers the child job kinds of every registered scenario that has them, one scenario after another so the kinds keep the scenarios' order (errors list them). */
export async function loadChildJobs(): Promise<void> {
  for (const scenario of registeredScenarios()) await scenario.childJobs?.();
}

/** Registers the queue job kinds and runners of every registered scenario that has them, in the scenarios' order. */
export async function loadQueueJobs(): Promise<void> {
  for (const scenario of registeredScenarios()) await scenario.queueJobs?.();
}
