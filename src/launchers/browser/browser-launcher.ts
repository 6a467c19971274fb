/**
 * The browser launcher: runs one load of a browser engine in its browser
 * (Chromium, Firefox or WebKit, each through its driver:
 * engines/browser/browser-driver.ts). Per engine × threads it starts a
 * loopback server with COOP/COEP and the browser once, kept across that load's rounds; each round (a fresh
 * load) gets a fresh browser context and page. It knows no scenario: the
 * scenario hands it `measure`, which it calls with the engine bound to the
 * page, so the scenario measures the session exactly as in Node (warm pass,
 * timed passes, stop rule) while the page times each call; and `fail`, which
 * records the load's cells with a reason when no page could be had.
 * A page that crashes or hangs becomes errored cells after a timeout and its
 * browser is closed at once (the next round starts a new one); the others
 * are closed by `close()` when the sweep ends. The sweep goes on.
 */
import type { Engine } from '../../core/engine.js';
import type { EngineRegistry } from '../../core/engine-registry.js';
import type { LaunchedBrowser, PageContext, PageLike } from '../../../engines/browser/browser-driver.js';
import { driverFor } from '../../../engines/browser/browser-drivers.js';
import { WARMUP_PATH } from '../../../engines/browser/browser-engine.js';
import { assetRoutes, pageBundle, pageHtml, warmupOnnx } from '../../../engines/browser/page-assets.js';
import { isBrowserEngine, type BrowserEngine, type PageHost } from '../../../engines/browser/page-host.js';
import type { PageEntry } from '../../../engines/browser/browser-specs.js';
import { CellSkip } from '../../core/errors.js';
import { startLoopbackServer, type LoopbackServer } from './loopback-server.js';
import { drivePage } from './page-driver.js';
import { rendererMemory } from './renderer-memory.js';

export interface BrowserLauncherOptions {
  /** Longest any one page call (load, one batch) may take before the page counts as hung; default 5 minutes. */
  readonly timeoutMs?: number;
  /**
   * Longest one timed batch (the page's run()) may take, when it should be
   * bounded apart from loading: a batch of a loaded model is short, a load on
   * a busy machine is not. Default: `timeoutMs`.
   */
  readonly runTimeoutMs?: number;
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
    if (path === WARMUP_PATH) return { body: await warmupOnnx(), type: 'application/octet-stream' };
    return null;
  };
}

/** The engine the page loads into, as the scenario sees it: `load` goes to the launcher's page. */
function boundTo(engine: BrowserEngine, host: PageHost): Engine {
  return {
    id: engine.id,
    target: engine.target,
    format: engine.format,
    description: engine.description,
    runsIn: 'browser',
    probe: () => engine.probe(),
    load: (onnxPath, options) => engine.loadIn(host, onnxPath, options),
  };
}

/** One load a scenario hands the launcher: the engine it names and how to measure with it or record its cells as failed. */
export interface BrowserLoad {
  readonly engine: string | Engine;
  readonly registry: EngineRegistry;
  readonly threads: number | null;
  /** Measures the load's cells with `engine`: bound to a fresh page for a browser engine, the engine itself otherwise. */
  readonly measure: (engine: Engine) => Promise<void>;
  /** Records every cell of the load with this reason (a CellSkip when the browser is missing, else an error). */
  readonly fail: (err: unknown) => Promise<void>;
}

/** Runs loads in pages of a browser kept per engine × threads until `close()`. */
export interface BrowserLauncher {
  readonly name: 'browser';
  run(load: BrowserLoad): Promise<void>;
  close(): Promise<void>;
}

/** Opens the page and waits for its bundle to install the API; a bundle error is the reason when it never does. */
async function openPage(context: BrowserContextLike, server: LoopbackServer, timeoutMs: number): Promise<{ page: PageLike; pageLoadMs: number }> {
  const page: PageLike = await context.newPage();
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

type BrowserContextLike = PageContext;

/** The browser and its loopback server, kept for the rounds of one engine × threads. */
interface Running {
  readonly browser: LaunchedBrowser;
  readonly server: LoopbackServer;
}

/** Resolves `op` or gives up after the close timeout: a wedged browser must not hold the sweep. */
function bounded(op: Promise<unknown>): Promise<unknown> {
  return Promise.race([op.catch(() => undefined), new Promise((r) => setTimeout(r, CLOSE_TIMEOUT_MS).unref())]);
}

async function closeRunning(running: Running): Promise<void> {
  await bounded(running.browser.close());
  await running.server.close();
}

async function start(launch: () => Promise<LaunchedBrowser>, entry: PageEntry): Promise<Running> {
  const server = await startLoopbackServer(assetRoutes(), generated(entry));
  try {
    return { browser: await launch(), server };
  } catch (err) {
    await server.close();
    throw err;
  }
}

async function runInBrowser(load: BrowserLoad, options: BrowserLauncherOptions, kept: Map<string, Promise<Running>>): Promise<void> {
  let engine: Engine;
  try {
    engine = typeof load.engine === 'string' ? await load.registry.require(load.engine) : load.engine;
  } catch (err) {
    return load.fail(err);
  }
  if (!isBrowserEngine(engine)) return load.measure(engine);
  const variant = engine.browser;
  const driver = await driverFor(variant.browser);
  const found = await driver.find();
  if ('reason' in found) return load.fail(new CellSkip(`${found.reason} (${found.enable})`));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const id = `${engine.id}\u0000${load.threads}`;
  let pending = kept.get(id);
  if (!pending) {
    pending = start(() => driver.launch(found.path, variant), engine.spec.entry);
    kept.set(id, pending);
  }
  let running: Running;
  try {
    running = await pending;
  } catch (err) {
    kept.delete(id);
    return load.fail(err);
  }
  const { browser, server } = running;
  let context: BrowserContextLike | undefined;
  let broken: () => string | null = () => null;
  try {
    let host: PageHost;
    try {
      context = await browser.newContext();
      const { page, pageLoadMs } = await openPage(context, server, timeoutMs);
      const driven = drivePage(page, {
        origin: server.origin,
        browserVersion: browser.version,
        pageLoadMs,
        timeoutMs,
        ...(options.runTimeoutMs !== undefined ? { runTimeoutMs: options.runTimeoutMs } : {}),
        serveFile: (path) => server.addFile(path),
        serveFolder: (dir) => server.addFolder(dir),
        ...(options.testHooks ? { testHooks: options.testHooks } : {}),
        ...(browser.newBrowserCDPSession ? { residentMemory: rendererMemory(() => browser.newBrowserCDPSession!()) } : {}),
      });
      host = driven.host;
      broken = driven.broken;
    } catch (err) {
      broken = () => 'the page did not start';
      return await load.fail(err);
    }
    await load.measure(boundTo(engine, host));
  } finally {
    if (broken() !== null) {
      // A hung or crashed page: this browser is not trusted again; the next round starts another.
      kept.delete(id);
      await closeRunning(running);
    } else if (context) {
      await bounded(context.close());
    }
  }
}

/** A launcher that runs each round of a browser engine's load in a fresh page of its browser, kept for the engine × threads. */
export function browserLauncher(options: BrowserLauncherOptions = {}): BrowserLauncher {
  const kept = new Map<string, Promise<Running>>();
  return {
    name: 'browser',
    run: (load) => runInBrowser(load, options, kept),
    async close() {
      const all = [...kept.values()];
      kept.clear();
      for (const pending of all) {
        const running = await pending.catch(() => null);
        if (running) await closeRunning(running);
      }
    },
  };
}
