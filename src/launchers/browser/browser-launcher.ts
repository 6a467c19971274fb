/**
 * The browser launcher: runs a load group of a browser engine in headless
 * Chromium. Per launch (one round of one load group) it starts a loopback
 * server with COOP/COEP, Chromium, and a fresh page; the scenario's own
 * `measureLoadGroup` then measures the engine's session exactly as in Node
 * (warm pass, timed passes, stop rule), while the page times each call.
 * A page that crashes or hangs becomes errored cells after a timeout; the
 * browser is closed whatever happens, and the sweep goes on.
 */
import type { Engine } from '../../core/engine.js';
import type { CellKey } from '../../core/results.js';
import { findChromium, launchChromium, type BrowserLike } from '../../../engines/browser/chromium.js';
import { WARMUP_PATH } from '../../../engines/browser/browser-engine.js';
import { assetRoutes, pageBundle, pageHtml, warmupOnnx } from '../../../engines/browser/page-assets.js';
import { isBrowserEngine, type BrowserEngine, type PageHost } from '../../../engines/browser/page-host.js';
import type { PageEntry } from '../../../engines/browser/browser-specs.js';
import { CellSkip } from '../../core/errors.js';
import { measureLoadGroup, type GroupHooks, type LoadGroup } from '../../scenarios/classify/load-group.js';
import { failedRound } from '../../scenarios/classify/measure-cell.js';
import type { GroupLauncher } from '../launcher.js';
import { startLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { drivePage, type PageLike } from './page-driver.js';

export interface BrowserLauncherOptions {
  /** Longest any one page call (load, one batch) may take before the page counts as hung; default 5 minutes. */
  readonly timeoutMs?: number;
  /** Test hooks passed to the page: a hung run, a failed allocation at load. */
  readonly testHooks?: PageHost['testHooks'];
}

const DEFAULT_TIMEOUT_MS = 300_000;
const CLOSE_TIMEOUT_MS = 10_000;

/** Routes of generated content: the page, its bundle, the warm-up graph. */
function generated(entry: PageEntry) {
  return async (path: string) => {
    if (path === '/' || path === '/index.html') return { body: pageHtml(entry), type: 'text/html; charset=utf-8' };
    if (path === `/bundle/${entry}.js`) return { body: await pageBundle(entry), type: 'text/javascript; charset=utf-8' };
    if (path === WARMUP_PATH) return { body: warmupOnnx(), type: 'application/octet-stream' };
    return null;
  };
}

/** The engine the page loads into, as the scenario sees it: `load` goes to the launcher's page. */
function boundTo(engine: BrowserEngine, host: PageHost): Engine {
  return {
    id: engine.id,
    target: engine.target,
    description: engine.description,
    runsIn: 'browser',
    probe: () => engine.probe(),
    load: (onnxPath, options) => engine.loadIn(host, onnxPath, options),
  };
}

async function failAll(keys: readonly CellKey[], hooks: GroupHooks, err: unknown): Promise<void> {
  for (const k of keys) await hooks.onMeasured(failedRound(k, err));
}

/** Opens the page and waits for its bundle to install the API; a bundle error is the reason when it never does. */
async function openPage(browser: BrowserLike, server: LoopbackServer, timeoutMs: number): Promise<{ page: PageLike; pageLoadMs: number }> {
  const context = await browser.newContext();
  const page = (await context.newPage()) as PageLike;
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err instanceof Error ? err.message : String(err)));
  const started = performance.now();
  try {
    await page.goto(`${server.origin}/`, { timeout: timeoutMs });
    await page.waitForFunction(() => (globalThis as { __inferbench?: unknown }).__inferbench !== undefined, undefined, { timeout: timeoutMs });
  } catch (err) {
    throw new Error(`the benchmark page did not start${errors.length > 0 ? `: ${errors.join('; ')}` : `: ${(err as Error).message.split('\n')[0]}`}`);
  }
  return { page, pageLoadMs: performance.now() - started };
}

async function closeQuietly(browser: BrowserLike | undefined, server: LoopbackServer | undefined): Promise<void> {
  if (browser) await Promise.race([browser.close().catch(() => undefined), new Promise((r) => setTimeout(r, CLOSE_TIMEOUT_MS).unref())]);
  await server?.close();
}

async function runInBrowser(group: LoadGroup, hooks: GroupHooks, options: BrowserLauncherOptions): Promise<void> {
  let engine: Engine;
  try {
    engine = typeof group.engine === 'string' ? await group.registry.require(group.engine) : group.engine;
  } catch (err) {
    return failAll(group.keys, hooks, err);
  }
  if (!isBrowserEngine(engine)) return measureLoadGroup(group, hooks);
  const chromium = findChromium();
  if ('reason' in chromium) return failAll(group.keys, hooks, new CellSkip(`${chromium.reason} (${chromium.enable})`));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let server: LoopbackServer | undefined;
  let browser: BrowserLike | undefined;
  try {
    let host: PageHost;
    try {
      server = await startLoopbackServer(assetRoutes(), generated(engine.spec.entry));
      browser = await launchChromium(chromium.path);
      const { page, pageLoadMs } = await openPage(browser, server, timeoutMs);
      const s = server;
      host = drivePage(page, {
        origin: s.origin,
        browserVersion: `Chromium ${browser.version()}`,
        pageLoadMs,
        timeoutMs,
        serveFile: (path) => s.addFile(path),
        serveFolder: (dir) => s.addFolder(dir),
        ...(options.testHooks ? { testHooks: options.testHooks } : {}),
      });
    } catch (err) {
      return await failAll(group.keys, hooks, err);
    }
    await measureLoadGroup({ ...group, engine: boundTo(engine, host) }, hooks);
  } finally {
    await closeQuietly(browser, server);
  }
}

/** A launcher that runs each round of a browser engine's load group in a fresh headless Chromium. */
export function browserLauncher(options: BrowserLauncherOptions = {}): GroupLauncher {
  return { name: 'browser', run: (group, hooks) => runInBrowser(group, hooks, options) };
}
