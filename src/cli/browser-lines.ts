/**
 * `inferbench engines`' browser lines: each browser the browser engines run
 * in (`run --browsers`), found or not with its apt line, its version, and
 * what a cross-origin isolated page offers in it: wasm SIMD, SharedArrayBuffer
 * (wasm threads), hardwareConcurrency beside the machine's cores, the timer
 * step, the WebGL2 renderer and the WebGPU adapter. One launch per browser
 * (Chromium's answer is remembered across processes, capability-probe.ts).
 */
import { availableParallelism } from 'node:os';
import { driverFor } from '../../engines/browser/browser-drivers.js';
import { browserCapabilities } from '../../engines/browser/browser-capabilities.js';
import { pageCapabilities } from '../../engines/browser/capability-probe.js';
import { BROWSER_VARIANTS, type BrowserVariant } from '../../engines/browser/browser-variants.js';
import type { PageCapabilities } from '../../engines/browser/page/protocol.js';
import { wrap } from '../../reports/text-table.js';
import { engineLeftOutOfPack } from '../core/offline-pack.js';

const CLIENT = { chromium: 'playwright-core', firefox: 'puppeteer-core over WebDriver BiDi', webkit: 'WebKitWebDriver (W3C WebDriver) under Xvfb' } as const;

function offers(caps: PageCapabilities, variant: BrowserVariant): string {
  const yes = (b: boolean | undefined) => (b === undefined ? 'unknown' : b ? 'yes' : 'no');
  const cores = availableParallelism();
  const webgpu =
    caps.webgpuAdapter ?? `none (${variant.browser === 'firefox' ? 'off by default; --browsers firefox-webgpu opts in' : (caps.webgpuUnavailable ?? 'no adapter')})`;
  return [
    `wasm SIMD ${yes(caps.simd)}`,
    `crossOriginIsolated ${yes(caps.crossOriginIsolated)}`,
    `SharedArrayBuffer ${yes(caps.sharedArrayBuffer)}${caps.sharedArrayBuffer === false && variant.browser === 'webkit' ? ' (--browsers webkit-sab opts in)' : ''}`,
    `hardwareConcurrency ${caps.hardwareConcurrency}${caps.hardwareConcurrency !== cores ? ` (the machine has ${cores} cores)` : ''}`,
    ...(caps.timerResolutionMs !== undefined ? [`timer step ${caps.timerResolutionMs ?? 'unknown'} ms`] : []),
    `WebGL2 ${caps.webglRenderer ?? `none (${caps.webglUnavailable ?? 'no context'})`}`,
    `WebGPU ${webgpu}`,
  ].join(' · ');
}

/** The browsers as shipped (the opt-ins are named in the lines). */
const SHIPPED: readonly BrowserVariant[] = BROWSER_VARIANTS.filter((v) => v.optIn === null);
/** Their names, as `--browsers` and `--explain` take them. */
export const SHIPPED_BROWSERS: readonly string[] = SHIPPED.map((v) => v.name);

/**
 * The table view's one line for the browsers: each found with its version,
 * or "not found"; what each offers (which launches it) is `--explain NAME`,
 * so the table stays one screen and `inferbench engines` launches no browser.
 */
export async function browserSummary(width: number): Promise<string[]> {
  const left = engineLeftOutOfPack('browser-onnx-wasm');
  if (left) return [`browsers: ${left.reason}`];
  const parts: string[] = [];
  for (const variant of SHIPPED) {
    try {
      const found = await (await driverFor(variant.browser)).find();
      parts.push('reason' in found ? `${variant.name} not found` : `${variant.name} ${found.version}`);
    } catch {
      parts.push(`${variant.name} could not be asked`);
    }
  }
  return wrap(`browsers (run --browsers): ${parts.join(' · ')}; what each offers: --explain ${SHIPPED_BROWSERS.join('|')}`, width);
}

/** One `[name, text]` per browser as shipped, or only `only`'s (the opt-ins are named in the lines). */
export async function browserLines(only?: string): Promise<(readonly [string, string])[]> {
  const out: (readonly [string, string])[] = [];
  // An offline pack carries no browser driver: its browser engines' own lines already say so.
  const left = engineLeftOutOfPack('browser-onnx-wasm');
  if (left) return [['all', `${left.reason} (${left.enable})`]];
  for (const variant of SHIPPED.filter((v) => only === undefined || v.name === only)) {
    try {
      const driver = await driverFor(variant.browser);
      const found = await driver.find();
      if ('reason' in found) {
        out.push([variant.name, `not found: ${found.reason} (${found.enable}); its rows in --browsers are unavailable`]);
        continue;
      }
      const caps = variant.browser === 'chromium' ? await pageCapabilities(found) : await browserCapabilities(variant, found.path);
      out.push([variant.name, `${found.version} (${CLIENT[variant.browser]}): ${offers(caps, variant)}`]);
    } catch (err) {
      out.push([variant.name, `could not be asked: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`]);
    }
  }
  return out;
}

/** The browser lines under a heading, each wrapped under its name to fit `width` (`wide`: one line each, for grep); `only`: one browser's. */
export async function browserBlock(layout: { readonly width: number; readonly wide: boolean }, only?: string): Promise<string[]> {
  const entries = await browserLines(only);
  const nameWidth = Math.max(...entries.map(([name]) => name.length));
  const lines = ['browsers the browser engines run in (run --browsers; opt-ins: firefox-webgpu, webkit-sab):'];
  for (const [name, text] of entries) {
    const pieces = layout.wide ? [text] : wrap(text, Math.max(20, layout.width - nameWidth - 4));
    pieces.forEach((piece, i) => lines.push(`  ${(i === 0 ? name : '').padEnd(nameWidth)}  ${piece}`));
  }
  return lines;
}
