/**
 * The browser engines' public API for the browser launcher
 * (src/launchers/browser/): everything it needs to start a browser engine's
 * browser, serve its page and bind the engine to that page, and nothing of
 * how a page, a driver or an asset works. The launcher imports this module
 * alone from engines/browser (test/repo/architecture-launchers-generic checks),
 * so a page, a driver or a bundle changes here without touching it.
 */
import type { Engine } from '../../src/core/engine.js';
import type { LaunchedBrowser } from './browser-driver.js';
import { driverFor } from './browser-drivers.js';
import { WARMUP_PATH } from './browser-engine.js';
import { assetRoutes, pageBundle, pageHtml, warmupOnnx } from './page-assets.js';
import type { BrowserEngine, PageHost } from './page-host.js';

export type { LaunchedBrowser, PageContext, PageLike } from './browser-driver.js';
export type { BrowserEngine, PageHost } from './page-host.js';
export type { PageApi } from './page/protocol.js';
export { isBrowserEngine } from './page-host.js';

/** A generated route's answer, or null for a path the page does not have. */
export type GeneratedRoute = (path: string) => Promise<{ readonly body: string | Uint8Array; readonly type: string } | null>;

/** How to start a browser engine's browser and serve its page, or why its browser is not here. */
export type PageBrowser =
  | { readonly missing: string }
  | {
      readonly launch: () => Promise<LaunchedBrowser>;
      /** URL path → file served as it is (the runtimes' scripts and wasm). */
      readonly assets: Record<string, string>;
      /** Content made on request: the page, its bundle, the warm-up graph. */
      readonly generated: GeneratedRoute;
    };

/** Finds the browser of `engine` and says how to launch it and what its page is served from. */
export async function pageBrowser(engine: BrowserEngine): Promise<PageBrowser> {
  const variant = engine.browser;
  const driver = await driverFor(variant.browser);
  const found = await driver.find();
  if ('reason' in found) return { missing: `${found.reason} (${found.enable})` };
  const entry = engine.spec.entry;
  return {
    launch: () => driver.launch(found.path, variant),
    assets: assetRoutes(),
    generated: async (path) => {
      if (path === '/' || path === '/index.html') return { body: pageHtml(entry), type: 'text/html; charset=utf-8' };
      if (path === `/bundle/${entry}.js`) return { body: await pageBundle(entry), type: 'text/javascript; charset=utf-8' };
      if (path === WARMUP_PATH) return { body: await warmupOnnx(), type: 'application/octet-stream' };
      return null;
    },
  };
}

/** The engine as a job sees it once the launcher has a page: its open goes into that page. */
export function bindToPage(engine: BrowserEngine, host: PageHost): Engine {
  return {
    id: engine.id,
    target: engine.target,
    format: engine.format,
    description: engine.description,
    runsIn: 'browser',
    probe: () => engine.probe(),
    open: (onnxPath, options) => engine.openIn(host, onnxPath, options),
  };
}
