/**
 * The highest rate that meets the latency goal, as LoadGen's
 * FindPeakPerformance finds it (mlcommons/inference loadgen/loadgen.cc:
 * widen the bounds until one fails, then bisect): from a passing rate,
 * double until a rate fails; from a failing one, halve until one passes;
 * then bisect between the last passing and the first failing rate until
 * they are within `relativePrecision` of each other. Pure over `probe`,
 * which measures a rate and says whether it passed, or null when a stop
 * (Ctrl-C, SIGTERM) cut it short: a cut probe is no evidence, so it moves
 * neither bound and the search ends.
 */
import type { ProbePurpose } from './load-results.js';

export interface PeakSearchOptions {
  /** First rate to try when no measured rate brackets the peak yet. */
  readonly startRps: number;
  /** Below this the search gives up: no rate passes. */
  readonly minRps: number;
  /** Above this the search stops: the peak is at least this (no rate failed). */
  readonly maxRps: number;
  /** Stop once (first failing − last passing) ÷ last passing is at most this. */
  readonly relativePrecision: number;
  /** Probes the search may make, bracketing and bisecting together. */
  readonly maxProbes: number;
  /** Rates already measured (e.g. the user's --rates), with whether they passed. */
  readonly known: readonly { readonly rateRps: number; readonly passed: boolean }[];
  readonly signal?: AbortSignal;
}

export interface PeakSearchResult {
  readonly lastPass: number | null;
  readonly firstFail: number | null;
  /** Probes the search itself made. */
  readonly probes: number;
  /** A probe was cut short by a stop: it set neither bound, and the search ended there. */
  readonly interrupted: boolean;
}

/** Defaults of `inferbench load --find-peak`. */
export const PEAK_PRECISION = 0.05;
export const PEAK_MAX_PROBES = 16;

/** Three significant digits: rates a reader can type back. */
export function roundRate(rps: number): number {
  if (!(rps > 0)) return rps;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(rps)));
  const factor = 10 ** digits;
  return Math.round(rps * factor) / factor;
}

/** Searches for the peak rate; see the module comment. */
export async function searchPeak(probe: (rateRps: number, purpose: ProbePurpose) => Promise<boolean | null>, o: PeakSearchOptions): Promise<PeakSearchResult> {
  const fails = o.known.filter((k) => !k.passed).map((k) => k.rateRps);
  let firstFail: number | null = fails.length > 0 ? Math.min(...fails) : null;
  const passes = o.known.filter((k) => k.passed && (firstFail === null || k.rateRps < firstFail)).map((k) => k.rateRps);
  let lastPass: number | null = passes.length > 0 ? Math.max(...passes) : null;
  let probes = 0;
  let interrupted = false;
  const stopped = () => interrupted || probes >= o.maxProbes || o.signal?.aborted === true;
  const tryRate = async (rate: number, purpose: ProbePurpose) => {
    probes++;
    const passed = await probe(rate, purpose);
    if (passed === null) interrupted = true;
    else if (passed) lastPass = rate;
    else firstFail = rate;
  };
  if (lastPass === null && firstFail === null && !stopped()) await tryRate(roundRate(Math.min(Math.max(o.startRps, o.minRps), o.maxRps)), 'bracket');
  while (firstFail === null && lastPass !== null && lastPass < o.maxRps && !stopped()) await tryRate(roundRate(Math.min(lastPass * 2, o.maxRps)), 'bracket');
  while (lastPass === null && firstFail !== null && firstFail / 2 >= o.minRps && !stopped()) await tryRate(roundRate(firstFail / 2), 'bracket');
  for (;;) {
    if (lastPass === null || firstFail === null || stopped()) break;
    const low: number = lastPass;
    const high: number = firstFail;
    if ((high - low) / low <= o.relativePrecision) break;
    const mid = roundRate(low + (high - low) / 2);
    if (mid <= low || mid >= high) break;
    await tryRate(mid, 'bisect');
  }
  return { lastPass, firstFail, probes, interrupted: interrupted || o.signal?.aborted === true };
}
