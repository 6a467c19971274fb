/**
 * `--browsers chromium,firefox,webkit`: each browser engine named in
 * `--engines` runs in each browser, as its own engine id
 * (engines/browser/browser-variants.ts), so the run's config, history,
 * reports and comparisons hold the expanded list and need no browser field
 * of their own. Node engines are left as they are. Without `--browsers`
 * nothing changes (Chromium, the bare ids).
 */
import { BROWSER_VARIANTS, browserEngineId, browserVariant, splitBrowserEngineId } from '../../../engines/browser/browser-variants.js';
import type { EngineRegistry } from '../../core/engine-registry.js';
import { UserError } from '../../core/errors.js';

/** Checks the browser names: each known, none twice. */
export function parseBrowsers(names: readonly string[], flag: string): string[] {
  const unknown = names.filter((n) => browserVariant(n) === undefined);
  if (unknown.length > 0) {
    throw new UserError(`unknown browser${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => JSON.stringify(n)).join(', ')} in ${flag}`, `use one or more of: ${BROWSER_VARIANTS.map((v) => v.name).join(', ')}`);
  }
  if (names.length === 0) throw new UserError(`${flag} names no browser`, `use one or more of: ${BROWSER_VARIANTS.map((v) => v.name).join(', ')}`);
  return [...new Set(names)];
}

/**
 * The engine list with every browser engine in every browser named, in
 * `--engines` order, browsers in `--browsers` order. An engine already
 * naming its browser (`browser-onnx-wasm@firefox`) is kept as it is.
 */
export function expandBrowsers(engines: readonly string[], browsers: readonly string[], registry: EngineRegistry, flag: string): string[] {
  const known = new Set(registry.ids());
  const out: string[] = [];
  let anyBrowserEngine = false;
  for (const id of engines) {
    const named = splitBrowserEngineId(id).browser !== null;
    // A browser engine's bare id is Chromium's; its other browsers are registered beside it.
    const base = !named && known.has(browserEngineId(id, 'firefox'));
    if (named || base) anyBrowserEngine = true;
    if (!base) out.push(id);
    else for (const b of browsers) out.push(browserEngineId(id, b));
  }
  if (!anyBrowserEngine) throw new UserError(`${flag} applies to browser engines, and the engines named run in none`, 'name a browser engine too, e.g. --engines browser-onnx-wasm,browser-tfjs-wasm (see `inferbench engines`)');
  return [...new Set(out)];
}
