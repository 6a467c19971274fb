/**
 * A browser engine's row name when a run holds more than one browser:
 * `browser-onnx-wasm · firefox 153` (the engine, the browser as `--browsers`
 * names it, its major version read back in the page). The engine id
 * (`browser-onnx-wasm@firefox`) stays what the CSV, history and compare key
 * on; this is the one display form every table and chart shows.
 */
import type { CellResult, RunRecord } from '../src/core/results.js';

/** The browser an engine id names after its `@` (engines/browser/browser-variants.ts), or null for a bare id. */
function browserOf(engine: string): { readonly base: string; readonly browser: string } | null {
  const at = engine.lastIndexOf('@');
  return at > 0 ? { base: engine.slice(0, at), browser: engine.slice(at + 1) } : null;
}

/**
 * A browser engine id as a line names it before any cell read a version
 * back (progress lines, verdict lines): `browser-onnx-wasm · firefox` for
 * `browser-onnx-wasm@firefox`; any other id as it is.
 */
export function browserEngineName(engine: string): string {
  const split = browserOf(engine);
  return split === null ? engine : `${split.base} · ${split.browser}`;
}

/** `153` of `153.8.0`; `2.50` of WebKitGTK's `2.50.6`, whose major alone says nothing. */
function majorOf(version: string): string {
  const parts = version.split('.');
  return Number(parts[0]) < 10 && parts.length > 1 ? parts.slice(0, 2).join('.') : (parts[0] ?? '');
}

/**
 * Names each browser engine's cells by engine, browser and major version
 * when any cell ran outside Chromium; otherwise (the usual run) the id
 * itself. A cell that never opened takes the version another cell of its
 * engine read back, so one engine keeps one name.
 */
export function browserLabeller(run: Pick<RunRecord, 'cells'>): (cell: CellResult) => string {
  if (!run.cells.some((c) => browserOf(c.engine) !== null)) return (cell) => cell.engine;
  const major = new Map<string, string>();
  for (const cell of run.cells) {
    const b = cell.state === 'skipped' ? undefined : cell.session?.browser;
    if (!b || major.has(cell.engine)) continue;
    major.set(cell.engine, majorOf(b.browserVersion ?? b.browser.replace(/^\D+/, '')));
  }
  return (cell) => {
    const split = browserOf(cell.engine);
    const chromium = split === null && cell.engine.startsWith('browser-');
    if (split === null && !chromium) return cell.engine;
    const version = major.get(cell.engine);
    return `${split?.base ?? cell.engine} · ${split?.browser ?? 'chromium'}${version ? ` ${version}` : ''}`;
  };
}

/** What the comparison chart calls the browser rows' runtime: Chromium alone as before, else the browsers the run used. */
export function browserRuntime(run: Pick<RunRecord, 'cells'>): string {
  if (!run.cells.some((c) => browserOf(c.engine) !== null)) return 'browser (headless Chromium)';
  const names = run.cells.flatMap((c) => {
    const named = browserOf(c.engine)?.browser;
    return named ? [named] : c.engine.startsWith('browser-') ? ['chromium'] : [];
  });
  return `browser (${[...new Set(names)].join(', ')} pages)`;
}
