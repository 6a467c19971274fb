/**
 * The built-in launchers as one value (core/launch-jobs.ts `Launchers`),
 * for the runs that choose among them (the classification sweep) and the
 * history's recorder, which hands a scenario's run the isolated one.
 * Launchers sit above scenarios, so a scenario is given these, never
 * imports them.
 */
import type { Launcher, Launchers } from '../core/launch-jobs.js';
import type { QueueConnectOptions } from '../core/queue-launch.js';
import type { Scenario, ScenarioRunHooks } from '../scenarios/scenario-registry.js';
import { scenarioLaunch } from './scenario-launch.js';
import { inProcessLaunch } from '../launchers/in-process-launcher.js';
import { isolatedLaunch } from '../launchers/isolated-launcher.js';
import { browserLauncher } from '../launchers/browser/browser-launcher.js';

export const BUILTIN_LAUNCHERS: Launchers = Object.freeze({
  inProcess: () => inProcessLaunch(),
  isolated: (engineModules: readonly string[]) => isolatedLaunch(engineModules),
  page: () => browserLauncher(),
  // BullMQ and ioredis load only for a queue run.
  queue: async (options: QueueConnectOptions) => (await import('../launchers/queue/queue-connection.js')).connectQueue(options),
});

/**
 * A scenario's run hooks with the built-in launchers where its caller gave
 * none: the isolated one (told the scenario's `childModule` and the
 * registry's plug-in engine modules) and the set. The history's recorder and
 * the public API's runs (src/runs/library-runs.ts) give a run its launchers
 * through here.
 */
export function withBuiltinLaunchers<H extends ScenarioRunHooks<never, never>>(scenario: { readonly childModule?: Scenario['childModule'] }, hooks: H): H & { readonly isolated: Launcher; readonly launchers: Launchers } {
  return { ...hooks, isolated: hooks.isolated ?? scenarioLaunch(scenario, hooks.registry?.engineModules() ?? []), launchers: hooks.launchers ?? BUILTIN_LAUNCHERS };
}
