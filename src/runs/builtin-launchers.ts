/**
 * The built-in launchers as one value (core/launch-jobs.ts `Launchers`),
 * for the runs that choose among them (the classification sweep) and the
 * history's recorder, which hands a scenario's run the isolated one.
 * Launchers sit above scenarios, so a scenario is given these, never
 * imports them.
 */
import type { Launchers } from '../core/launch-jobs.js';
import { inProcessLaunch } from '../launchers/in-process-launcher.js';
import { isolatedLaunch } from '../launchers/isolated-launcher.js';
import { browserLauncher } from '../launchers/browser/browser-launcher.js';

export const BUILTIN_LAUNCHERS: Launchers = Object.freeze({
  inProcess: () => inProcessLaunch(),
  isolated: (engineModules: readonly string[]) => isolatedLaunch(engineModules),
  page: () => browserLauncher(),
});
