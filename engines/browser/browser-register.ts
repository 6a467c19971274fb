/**
 * The browser engines (browser-specs.ts) run in headless Chromium by the browser
 * launcher. Their module (and playwright-core, esbuild) is imported only when
 * an engine is created.
 */
import { registerEngine } from '../../src/core/engine-registry.js';
import { BROWSER_ENGINE_SPECS } from './browser-specs.js';

for (const spec of BROWSER_ENGINE_SPECS) {
  registerEngine(spec.id, async () => (await import('./browser-engine.js')).createBrowserEngine(spec));
}
