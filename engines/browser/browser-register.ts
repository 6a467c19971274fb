/**
 * The browser engines (browser-specs.ts), each in every browser
 * (browser-variants.ts): Chromium's under the bare id, the others as
 * `<id>@<browser>`. Their module (and playwright-core, puppeteer-core,
 * esbuild) is imported only when an engine is created.
 */
import { registerEngine } from '../../src/core/engine-registry.js';
import { BROWSER_ENGINE_SPECS } from './browser-specs.js';
import { BROWSER_VARIANTS, browserEngineId } from './browser-variants.js';

for (const variant of BROWSER_VARIANTS) {
  for (const spec of BROWSER_ENGINE_SPECS) {
    registerEngine(browserEngineId(spec.id, variant.name), async () => (await import('./browser-engine.js')).createBrowserEngine(spec, variant));
  }
}
