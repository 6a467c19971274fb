/**
 * The page a browser engine opens models in, as the browser launcher provides it.
 * The engine layer cannot import launchers, so the launcher implements this
 * and hands it to `BrowserEngine.openIn`.
 */
import type { Engine, ResolvedSessionOptions } from '../../src/core/engine.js';
import type { EngineSession, ResidentMemoryProbe } from '../../src/core/engine-session.js';
import type { BrowserEngineSpec } from './browser-specs.js';
import type { BrowserVariant } from './browser-variants.js';
import type { PageApi } from './page/protocol.js';

export interface PageHost {
  /** `http://127.0.0.1:<port>` of the loopback server the page came from. */
  readonly origin: string;
  /** e.g. `Chromium 156.0.8078.79`, `Firefox 153.8.0`, `WebKitGTK 2.50.6`. */
  readonly browserVersion: string;
  /** Navigation until the bundle had installed its API. */
  readonly pageLoadMs: number;
  /** Serves one file (the ONNX graph) and returns its URL. */
  serveFile(path: string): string;
  /** Serves the files of a folder (a model folder for transformers.js) at `<root><name>/…`; root ends in `/`. */
  serveFolder(dir: string): { readonly root: string; readonly name: string };
  /** Calls the page's API; rejects after the launcher's timeout or when the page crashed. */
  call<M extends keyof PageApi>(method: M, ...args: Parameters<PageApi[M]>): Promise<Awaited<ReturnType<PageApi[M]>>>;
  /** Lines the page printed to its console that match `pattern`, in order (ORT's node placement log). */
  consoleLines(pattern: RegExp): readonly string[];
  /** Peak RSS of the renderer process running this page, read by the launcher (absent: none can be read). */
  readonly residentMemory?: ResidentMemoryProbe;
  /** Test hooks passed to the page's open: a hung page, a failed allocation. */
  readonly testHooks?: { readonly simulateHang?: boolean; readonly simulateOpenFailure?: string };
}

/** An engine that runs in a browser page: the run layer gives its open groups to the browser launcher. */
export interface BrowserEngine extends Engine {
  readonly runsIn: 'browser';
  readonly spec: BrowserEngineSpec;
  /** The browser it runs in (its driver, and the opt-ins of its launch). */
  readonly browser: BrowserVariant;
  /** Opens the model in the launcher's page. */
  openIn(host: PageHost, onnxPath: string, options: ResolvedSessionOptions): Promise<EngineSession>;
}

export function isBrowserEngine(engine: Engine): engine is BrowserEngine {
  return engine.runsIn === 'browser' && typeof (engine as Partial<BrowserEngine>).openIn === 'function';
}
