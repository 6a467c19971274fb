/**
 * The browsers a browser engine runs in, as `--browsers` names them. Each
 * (engine, browser) is its own engine id, so every table, chart, CSV row
 * and comparison keeps the browsers apart with no view knowing of them:
 * Chromium keeps the bare id (`browser-onnx-wasm`, as every run before
 * this had it), the others add `@<browser>` (`browser-onnx-wasm@firefox`).
 * An opt-in (Firefox's WebGPU prefs, WebKit's SharedArrayBuffer switch)
 * changes what the browser offers, so it is a browser of its own name and
 * row, never a silent setting.
 */

/** The browser a variant runs in (`BrowserVariant.browser`), whose driver starts it. */
export type Browser = 'chromium' | 'firefox' | 'webkit';

export interface BrowserVariant {
  /** What `--browsers` and the engine id's suffix say. */
  readonly name: string;
  readonly browser: Browser;
  /** Firefox prefs dom.webgpu.enabled and gfx.webgpu.ignore-blocklist. */
  readonly webgpu: boolean;
  /** WebKitWebDriver started with JSC_useSharedArrayBuffer=true. */
  readonly sharedArrayBuffer: boolean;
  /** The opt-in as every row of this browser names it; null for the browser as shipped. */
  readonly optIn: string | null;
}

export const BROWSER_VARIANTS: readonly BrowserVariant[] = Object.freeze([
  { name: 'chromium', browser: 'chromium', webgpu: false, sharedArrayBuffer: false, optIn: null },
  { name: 'firefox', browser: 'firefox', webgpu: false, sharedArrayBuffer: false, optIn: null },
  {
    name: 'firefox-webgpu',
    browser: 'firefox',
    webgpu: true,
    sharedArrayBuffer: false,
    optIn: 'opt-in: Firefox prefs dom.webgpu.enabled and gfx.webgpu.ignore-blocklist (WebGPU is off by default in Firefox ESR)',
  },
  { name: 'webkit', browser: 'webkit', webgpu: false, sharedArrayBuffer: false, optIn: null },
  {
    name: 'webkit-sab',
    browser: 'webkit',
    webgpu: false,
    sharedArrayBuffer: true,
    optIn: 'opt-in: WebKitWebDriver run with JSC_useSharedArrayBuffer=true (WebKitGTK leaves SharedArrayBuffer undefined even when cross-origin isolated)',
  },
] as const satisfies readonly BrowserVariant[]);

export const DEFAULT_BROWSER = 'chromium';

/** The browser a name stands for, or undefined. */
export function browserVariant(name: string): BrowserVariant | undefined {
  return BROWSER_VARIANTS.find((v) => v.name === name);
}

/** The engine id of a browser engine in one browser: the bare id in Chromium, `<id>@<browser>` elsewhere. */
export function browserEngineId(base: string, browser: string): string {
  return browser === DEFAULT_BROWSER ? base : `${base}@${browser}`;
}

/** The browser engine and browser an engine id names; `browser` is null for an id with no `@` (Chromium's, or a Node engine's). */
export function splitBrowserEngineId(id: string): { readonly base: string; readonly browser: string | null } {
  const at = id.lastIndexOf('@');
  if (at <= 0) return { base: id, browser: null };
  return { base: id.slice(0, at), browser: id.slice(at + 1) };
}
