/**
 * What a row says when its wasm engine runs fewer threads than the browser
 * reports cores: never a silent fallback. A requested count the page cannot
 * give is a skipped cell (browser-engine.ts); the engine's default that
 * comes out as one thread is said here, with the reason the page read back.
 */
import type { BrowserEngineSpec } from './browser-specs.js';
import type { BrowserVariant } from './browser-variants.js';
import type { PageCapabilities } from './page/protocol.js';

export function threadNotes(spec: BrowserEngineSpec, variant: BrowserVariant, threads: number | null, caps: PageCapabilities): string[] {
  const notes = [`navigator.hardwareConcurrency ${caps.hardwareConcurrency} (as the browser reports it)`];
  if (caps.timerResolutionMs !== undefined) notes.push(`page timer step ${caps.timerResolutionMs === null ? 'unknown' : `${caps.timerResolutionMs} ms`} (smallest non-zero step of performance.now())`);
  if (spec.backend !== 'wasm' || threads === null || threads > 1 || caps.hardwareConcurrency <= 1) return notes;
  if (!caps.crossOriginIsolated) notes.push('single-threaded: the page is not cross-origin isolated, so there is no SharedArrayBuffer');
  else if (caps.sharedArrayBuffer === false) {
    notes.push(`single-threaded: SharedArrayBuffer is undefined in this browser although the page is cross-origin isolated${variant.browser === 'webkit' ? ' (--browsers webkit-sab opts in: JSC_useSharedArrayBuffer=true)' : ''}`);
  } else if (spec.runtime === 'tfjs') notes.push(`single-threaded: tfjs-backend-wasm made no thread pool in ${variant.browser} (getThreadsCount() 1) although SharedArrayBuffer is there`);
  else notes.push(`one wasm thread: the runtime's own default for ${caps.hardwareConcurrency} reported cores (--threads asks for more)`);
  return notes;
}
