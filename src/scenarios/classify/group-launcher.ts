/**
 * How a classification load group is isolated: the launcher seam (after
 * optimum-benchmark's backend / scenario / launcher split). A launcher
 * decides where `measureLoadGroup` runs and relays its cells; it never
 * changes what is measured. The in-process launcher lives here; the child
 * process (classify-child-job.ts through src/launchers/isolated-launcher.ts)
 * and the browser launcher (src/launchers/browser) plug in beside it.
 */
import { measureLoadGroup, type GroupHooks, type LoadGroup } from './load-group.js';

export interface GroupLauncher {
  /** Recorded on nothing; for messages and tests. */
  readonly name: string;
  /** Runs one load group; resolves when every key has been handed to `hooks` (measured, failed or skipped). */
  run(group: LoadGroup, hooks: GroupHooks): Promise<void>;
  /** Frees what the launcher keeps between rounds of a load group (the browser launcher's Chromium); called once the sweep is over. */
  close?(): Promise<void>;
}

/** Runs every load group in this process. */
export const inProcessLauncher: GroupLauncher = {
  name: 'in-process',
  run: (group, hooks) => measureLoadGroup(group, hooks),
};
