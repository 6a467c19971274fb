/**
 * The classification scenario's load groups on the browser launcher. The
 * launcher (src/launchers/browser/) knows no scenario: it is handed how to
 * measure and how to fail. This adapter lives in runs/ because it is the
 * lowest layer that sees both the scenario's `measureLoadGroup` and the
 * launcher, as the import direction requires (scenarios ← launchers ← runs).
 */
import { browserLauncher, type BrowserLauncherOptions } from '../launchers/browser/browser-launcher.js';
import type { GroupLauncher } from '../scenarios/classify/group-launcher.js';
import { measureLoadGroup } from '../scenarios/classify/load-group.js';
import { failedRound } from '../scenarios/classify/measure-cell.js';

/** A group launcher that runs each round of a browser engine's load group in a fresh page of a headless Chromium kept for the group. */
export function browserGroupLauncher(options: BrowserLauncherOptions = {}): GroupLauncher {
  const pages = browserLauncher(options);
  return {
    name: pages.name,
    run: (group, hooks) =>
      pages.run({
        engine: group.engine,
        registry: group.registry,
        threads: group.threads,
        measure: (engine) => measureLoadGroup({ ...group, engine }, hooks),
        fail: async (err) => {
          for (const key of group.keys) await hooks.onMeasured(failedRound(key, err));
        },
      }),
    close: () => pages.close(),
  };
}
