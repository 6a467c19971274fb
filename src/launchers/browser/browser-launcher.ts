/**
 * The browser launcher: runs one open of a browser engine in its browser
 * (Chromium, Firefox or WebKit, each through its driver:
 * engines/browser/browser-driver.ts). Per engine × threads it starts a
 * loopback server with COOP/COEP and the browser once, kept across that open's rounds; each round (a fresh
 * open) gets a fresh browser context and page. It knows no scenario: it
 * takes the same `{ kind, payload }` job as every launcher and runs the page
 * job registered for the kind (src/core/launch-jobs.ts) with the engine
 * bound to the page, so the scenario measures the session exactly as in
 * Node (warm pass, timed passes, stop rule) while the page times each call;
 * when no page can be had, each key gets the launch's failed (or skipped)
 * result with the reason. Of engines/browser it knows only the public
 * driver API (engines/browser/driver-api.ts).
 * A page that crashes or hangs becomes errored cells after a timeout and its
 * browser is closed at once (the next round starts a new one); the others
 * are closed by `close()` when the sweep ends. The sweep goes on.
 */
import type { Engine } from '../../core/engine.js';
import type { EngineRegistry } from '../../core/engine-registry.js';
import { CellSkip, describeError } from '../../core/errors.js';
import { jobIo, pageJobs, type Launch, type LaunchHooks, type PageLaunch, type PageLauncher } from '../../core/launch-jobs.js';
import { bindToPage, isBrowserEngine, pageBrowser, type LaunchedBrowser, type PageContext, type PageHost, type PageLike } from '../../../engines/browser/driver-api.js';
import { startLoopbackServer, type Generated, type LoopbackServer } from './loopback-server.js';
import { drivePage } from './page-driver.js';
import { rendererMemory } from './renderer-memory.js';

export interface BrowserLauncherOptions {
  /** Longest any one page call (open, one batch) may take before the page counts as hung; default 5 minutes. */
  readonly timeoutMs?: number;
  /**
   * Longest one timed batch (the page's run()) may take, when it should be
   * bounded apart from opening: a batch of an opened model is short, an open on
   * a busy machine is not. Default: `timeoutMs`.
   */
  readonly runTimeoutMs?: number;
  /** Test hooks passed to the page: a hung run, a failed allocation at open. */
  readonly testHooks?: PageHost['testHooks'];
}

const DEFAULT_TIMEOUT_MS = 300_000;
const CLOSE_TIMEOUT_MS = 10_000;

export type { PageLaunch } from '../../core/launch-jobs.js';

/** Runs jobs beside pages of a browser kept per engine × threads until `close()`. */
export interface BrowserLauncher extends PageLauncher {
  readonly name: 'browser';
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

async function start(launch: () => Promise<LaunchedBrowser>, assets: Record<string, string>, generated: Generated): Promise<Running> {
  const server = await startLoopbackServer(assets, generated);
  try {
    return { browser: await launch(), server };
  } catch (err) {
    await server.close();
    throw err;
  }
}

/** Every key of `launch` with the reason no page could be had: skipped when the browser is missing, failed otherwise. */
async function failAll<Key, Result>(launch: PageLaunch<Key, Result>, hooks: LaunchHooks<Key, Result>, err: unknown): Promise<void> {
  const skip = err instanceof CellSkip;
  for (const key of launch.keys) await hooks.onResult(skip ? (launch.skipped ?? launch.failed)(key, err.message) : launch.failed(key, describeError(err)));
}

async function runInBrowser<Key, Result>(
  launch: PageLaunch<Key, Result>,
  hooks: LaunchHooks<Key, Result>,
  signal: AbortSignal | undefined,
  options: BrowserLauncherOptions,
  kept: Map<string, Promise<Running>>,
): Promise<void> {
  const job = pageJobs.job(launch.kind);
  const measure = (engine: Engine) => job(launch.payload, jobIo(hooks, signal), engine);
  let engine: Engine;
  try {
    engine = typeof launch.engine === 'string' ? await launch.registry.require(launch.engine) : launch.engine;
  } catch (err) {
    return failAll(launch, hooks, err);
  }
  if (!isBrowserEngine(engine)) return measure(engine);
  const browser = await pageBrowser(engine);
  if ('missing' in browser) return failAll(launch, hooks, new CellSkip(browser.missing));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const id = `${engine.id}\u0000${launch.threads}`;
  let pending = kept.get(id);
  if (!pending) {
    pending = start(browser.launch, browser.assets, browser.generated);
    kept.set(id, pending);
  }
  let running: Running;
  try {
    running = await pending;
  } catch (err) {
    kept.delete(id);
    return failAll(launch, hooks, err);
  }
  const { server } = running;
  let context: BrowserContextLike | undefined;
  let broken: () => string | null = () => null;
  try {
    let host: PageHost;
    try {
      context = await running.browser.newContext();
      const { page, pageLoadMs } = await openPage(context, server, timeoutMs);
      const driven = drivePage(page, {
        origin: server.origin,
        browserVersion: running.browser.version,
        pageLoadMs,
        timeoutMs,
        ...(options.runTimeoutMs !== undefined ? { runTimeoutMs: options.runTimeoutMs } : {}),
        serveFile: (path) => server.addFile(path),
        serveFolder: (dir) => server.addFolder(dir),
        ...(options.testHooks ? { testHooks: options.testHooks } : {}),
        ...(running.browser.newBrowserCDPSession ? { residentMemory: rendererMemory(() => running.browser.newBrowserCDPSession!()) } : {}),
      });
      host = driven.host;
      broken = driven.broken;
    } catch (err) {
      broken = () => 'the page did not start';
      return await failAll(launch, hooks, err);
    }
    await measure(bindToPage(engine, host));
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

/** A launcher that runs each job of a browser engine (a round of an open) beside a fresh page of its browser, kept for the engine × threads. */
export function browserLauncher(options: BrowserLauncherOptions = {}): BrowserLauncher {
  const kept = new Map<string, Promise<Running>>();
  return {
    name: 'browser',
    run: (launch, hooks, signal) => runInBrowser(launch, hooks, signal, options, kept),
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
