/**
 * How a load group is isolated: the launcher seam (after optimum-benchmark's
 * backend / scenario / launcher split). A launcher decides where the
 * scenario's `measureLoadGroup` runs and relays its cells; it never changes
 * what is measured. In-process and child-process launchers live here;
 * browser and distributed launchers plug in beside them.
 */
import { measureLoadGroup, type GroupHooks, type LoadGroup } from '../scenarios/classify/load-group.js';

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
