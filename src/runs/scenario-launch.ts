/**
 * The isolated launch of a registered scenario: the one isolated launcher
 * (src/launchers/isolated-launcher.ts), with each launch naming the module
 * the scenario's registration gives (`Scenario.childModule`). A scenario
 * defined outside the tree (a plug-in, a test) thus runs its cells in a
 * fresh child process through the same child entry and job protocol as
 * the built-ins, saying once, where it registers, which module teaches the
 * child its kind, instead of naming it on every launch it builds.
 */
import { isolatedLaunch } from '../launchers/isolated-launcher.js';
import type { Launcher } from '../core/launch-jobs.js';
import type { Scenario } from '../scenarios/scenario-registry.js';

/** The isolated launch for `scenario`; `engineModules` are registered in each child first, as a local run's are. */
export function scenarioLaunch(scenario: { readonly childModule?: Scenario['childModule'] }, engineModules: readonly string[] = []): Launcher {
  const launch = isolatedLaunch(engineModules);
  const module = scenario.childModule;
  // A launch that names its own module keeps it; the registration fills in the rest.
  return (one, hooks, signal) => launch(module === undefined || one.module !== undefined ? one : { ...one, module }, hooks, signal);
}
