/**
 * `inferbench tune`'s search, as pure arithmetic: successive halving over
 * rungs (after Jamieson & Talwalkar, and Triton model-analyzer's quick
 * search in spirit). Every candidate gets a short rung; the slower half of
 * each engine's candidates is dropped; the rest get a longer one; the last
 * rung runs the full stop rule. An engine's defaults are never dropped:
 * they are the baseline every speed-up is measured against, so they run
 * the full rule beside the finalists.
 */
/** A run's stop rule as its config holds it. */
export interface RungStop {
  readonly minTimeMs: number;
  readonly minBatches: number;
  readonly maxTimeMs: number;
}

/** The stop rule, rounds and rows of one rung. */
export interface Rung {
  readonly index: number;
  readonly stop: RungStop;
  readonly rounds: number;
  /** Rows each cell streams (`--limit`); null: every row, as the full rule. */
  readonly limit: number | null;
}

/** Non-default candidates an engine keeps from one rung to the next: the faster half, rounded up. */
export function survivorsAfter(candidates: number): number {
  return Math.ceil(candidates / 2);
}

/**
 * Rungs for an engine with `nonDefault` candidates besides its defaults:
 * halving until at most two are left, which then run the full rule; an
 * engine with two or fewer goes straight to it.
 */
export function rungCount(nonDefault: number): number {
  let n = nonDefault;
  let rungs = 1;
  while (n > 2) {
    n = survivorsAfter(n);
    rungs++;
  }
  return rungs;
}

/**
 * The rungs of a search of `count` rungs ending on `full`: rung r of K
 * runs the full rule scaled by 2^-(K-1-r) (times and batches), with its
 * rounds and rows scaled alike, so each rung doubles the last. Rounds never
 * go under one, rows never under the largest batch (`minRows`): every
 * candidate of a rung streams the same first rows, so they rank alike,
 * while the fixed cost of a round (a fresh open, a warm pass over every
 * row) shrinks with the rung.
 */
export function halvingRungs(count: number, full: { readonly stop: RungStop; readonly rounds: number; readonly limit?: number | null }, minRows = 1): Rung[] {
  return Array.from({ length: count }, (_, index) => {
    const f = 2 ** -(count - 1 - index);
    const limit = full.limit ?? null;
    return {
      index,
      limit: limit === null ? null : Math.min(limit, Math.max(minRows, Math.ceil(limit * f))),
      rounds: Math.max(1, Math.round(full.rounds * f)),
      stop: { minTimeMs: full.stop.minTimeMs * f, minBatches: Math.max(1, Math.ceil(full.stop.minBatches * f)), maxTimeMs: full.stop.maxTimeMs * f },
    };
  });
}

/** One candidate's result in a rung: its time relative to the defaults' at each batch size, or why it has none. */
export type RungScore = { readonly ratios: readonly number[] } | { readonly failed: string };

/** Geometric mean of the ratios: how much slower (>1) or faster than the defaults over every batch size. */
export function meanRatio(ratios: readonly number[]): number {
  return ratios.length === 0 ? Infinity : Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
}

/**
 * Which non-default candidates go on: the faster half by mean ratio, among
 * those that completed every cell with parity; the others with why.
 */
export function keepFaster(scores: ReadonlyMap<string, RungScore>, keep: number): { readonly kept: string[]; readonly dropped: ReadonlyMap<string, string> } {
  const dropped = new Map<string, string>();
  const ranked: [string, number][] = [];
  for (const [id, s] of scores) {
    if ('failed' in s) dropped.set(id, s.failed);
    else ranked.push([id, meanRatio(s.ratios)]);
  }
  ranked.sort((a, b) => a[1] - b[1]);
  for (const [id, r] of ranked.slice(keep)) dropped.set(id, `slower half (${r.toFixed(3)}× the defaults' time)`);
  return { kept: ranked.slice(0, keep).map(([id]) => id), dropped };
}
