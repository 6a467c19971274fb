/**
 * STS quality (MTEB's metric for semantic textual similarity): the Spearman
 * rank correlation between the cosine similarity of each pair's two
 * embeddings and the pair's gold score. Counted over every pair of one
 * pass, so every engine's figure is over the same rows.
 */
import { cosineSimilarity, EMBEDDING_OUTPUT_NAME } from './parity.js';
import type { TensorMap } from './tensor.js';

/** Ranks from 1, ties given their average rank (as scipy.stats.rankdata 'average'). */
function ranks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const out = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && (order[j + 1] as readonly [number, number])[0] === (order[i] as readonly [number, number])[0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) out[(order[k] as readonly [number, number])[1]] = rank;
    i = j + 1;
  }
  return out;
}

/** Spearman's ρ: Pearson correlation of the ranks (ties averaged), as scipy.stats.spearmanr; NaN when either side is constant or has under 2 values. */
export function spearman(xs: readonly number[], ys: readonly number[]): number {
  const n = Math.min(xs.length, ys.length);
  if (n < 2) return NaN;
  const rx = ranks(xs.slice(0, n));
  const ry = ranks(ys.slice(0, n));
  const mean = (n + 1) / 2;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (rx[i] as number) - mean;
    const dy = (ry[i] as number) - mean;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx === 0 || syy === 0 ? NaN : sxy / Math.sqrt(sxx * syy);
}

/** A cell's STS figure: Spearman over `pairs` pairs; null, with `why`, where it has no meaning (never NaN). */
export interface StsFigure {
  readonly spearman: number | null;
  readonly pairs: number;
  /** Why there is no Spearman: under 3 pairs, or constant scores or cosines. */
  readonly why?: string;
}

/** Fewest pairs a rank correlation is reported over (two points always correlate ±1). */
export const MIN_STS_PAIRS = 3;

/** The STS figure of the pairs' cosines and gold scores: Spearman, or null saying why it has no meaning. */
export function stsFigure(cosines: readonly number[], scores: readonly number[]): StsFigure {
  const pairs = Math.min(cosines.length, scores.length);
  if (pairs < MIN_STS_PAIRS) return { spearman: null, pairs, why: `${pairs} pair${pairs === 1 ? '' : 's'}, fewer than ${MIN_STS_PAIRS}` };
  if (scores.every((s) => s === scores[0])) return { spearman: null, pairs, why: `every gold score is ${scores[0]}` };
  if (cosines.every((c) => c === cosines[0])) return { spearman: null, pairs, why: 'every pair has the same cosine' };
  const rho = spearman(cosines, scores);
  return Number.isFinite(rho) ? { spearman: rho, pairs } : { spearman: null, pairs, why: 'not defined for these pairs' };
}

/**
 * Collects, per row of a pair batch, the cosine between the two halves of
 * its `sentence_embedding` (the first sentence's vector, then the
 * second's) and the row's gold score.
 */
export class StsTally {
  private readonly cosines: number[] = [];
  private readonly scores: number[] = [];

  constructor(private readonly scoreColumn: string) {}

  add(outputs: TensorMap, rows: readonly Readonly<Record<string, unknown>>[]): void {
    const t = outputs[EMBEDDING_OUTPUT_NAME];
    if (!t || t.dims.length !== 2 || t.dims[0] !== rows.length) return;
    const width = t.dims[1] as number;
    const half = width / 2;
    const data = t.data as Float32Array;
    rows.forEach((row, r) => {
      const score = Number(row[this.scoreColumn]);
      if (!Number.isFinite(score)) return;
      const a = data.subarray(r * width, r * width + half);
      const b = data.subarray(r * width + half, (r + 1) * width);
      this.cosines.push(cosineSimilarity(a, b));
      this.scores.push(score);
    });
  }

  /** The figure over the pairs added so far (n/a with its reason rather than NaN, even with none). */
  figure(): StsFigure {
    return stsFigure(this.cosines, this.scores);
  }
}
