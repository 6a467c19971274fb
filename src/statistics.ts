/**
 * Summary statistics of raw samples. Pure and dependency-free so the same
 * numbers come out in every report, and so they can be checked by hand.
 *
 * Percentiles use linear interpolation between closest ranks (Hyndman & Fan
 * type 7, the default of numpy.percentile and R's quantile): for sorted
 * samples x[0..n-1], p-th percentile = x[h0] + (h - h0)(x[h0+1] - x[h0]) with
 * h = (n - 1) * p / 100.
 */
export const PERCENTILE_METHOD = 'linear interpolation between closest ranks (Hyndman-Fan type 7, numpy default)';

export interface SampleStatistics {
  readonly count: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  /** Sample standard deviation (n - 1 denominator); 0 for a single sample. */
  readonly stdev: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  /** Sum of all samples. */
  readonly total: number;
}

/** The p-th percentile (0..100) of already sorted samples, by PERCENTILE_METHOD. */
export function percentileOfSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('percentile of an empty sample');
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile ${p} is outside 0..100`);
  const h = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (h - lo) * (b - a);
}

/** Computes SampleStatistics; throws on an empty sample rather than inventing zeros. */
export function computeStatistics(samples: readonly number[]): SampleStatistics {
  const n = samples.length;
  if (n === 0) throw new RangeError('statistics of an empty sample');
  const sorted = [...samples].sort((x, y) => x - y);
  let total = 0;
  for (const s of samples) total += s;
  const mean = total / n;
  let sq = 0;
  for (const s of samples) sq += (s - mean) ** 2;
  const stdev = n > 1 ? Math.sqrt(sq / (n - 1)) : 0;
  return {
    count: n,
    mean,
    min: sorted[0] as number,
    max: sorted[n - 1] as number,
    stdev,
    p50: percentileOfSorted(sorted, 50),
    p90: percentileOfSorted(sorted, 90),
    p99: percentileOfSorted(sorted, 99),
    total,
  };
}

/** Items processed per second over the measured engine time. */
export function throughput(items: number, totalMs: number): number {
  return totalMs > 0 ? (items * 1000) / totalMs : 0;
}
