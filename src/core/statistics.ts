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
  readonly p95: number;
  readonly p99: number;
  /** Sum of all samples. */
  readonly total: number;
  /** Coefficient of variation, stdev / mean; 0 when the mean is 0. */
  readonly cv: number;
  /** 95% confidence interval of the mean (Student t, n - 1 degrees of freedom); null for fewer than 2 samples. */
  readonly ci95: { readonly low: number; readonly high: number; readonly halfWidth: number } | null;
}

/**
 * Two-sided 95% critical values of Student's t for 1..30 degrees of freedom
 * (from the standard table); above 30 the values approach 1.96 and are
 * interpolated on 1/df between table points, which is accurate to 1e-3.
 */
const T95: readonly number[] = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
  2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
const T95_TAIL: readonly (readonly [number, number])[] = [
  [30, 2.042],
  [40, 2.021],
  [60, 2.0],
  [120, 1.98],
  [Infinity, 1.96],
];

/** Two-sided 95% critical value of Student's t with `df` degrees of freedom. */
export function tCritical95(df: number): number {
  if (!(df >= 1)) throw new RangeError(`degrees of freedom must be ≥ 1, got ${df}`);
  const whole = Math.floor(df);
  if (whole <= 30) return T95[whole - 1] as number;
  for (let i = 1; i < T95_TAIL.length; i++) {
    const [d1, t1] = T95_TAIL[i - 1] as readonly [number, number];
    const [d2, t2] = T95_TAIL[i] as readonly [number, number];
    if (whole <= d2) {
      // Linear in 1/df, the natural scale of t's convergence to the normal.
      const x = 1 / whole;
      const x1 = 1 / d1;
      const x2 = d2 === Infinity ? 0 : 1 / d2;
      return t1 + ((x - x1) * (t2 - t1)) / (x2 - x1);
    }
  }
  return 1.96;
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
  const halfWidth = n > 1 ? (tCritical95(n - 1) * stdev) / Math.sqrt(n) : 0;
  return {
    count: n,
    mean,
    min: sorted[0] as number,
    max: sorted[n - 1] as number,
    stdev,
    p50: percentileOfSorted(sorted, 50),
    p90: percentileOfSorted(sorted, 90),
    p95: percentileOfSorted(sorted, 95),
    p99: percentileOfSorted(sorted, 99),
    total,
    cv: mean !== 0 ? stdev / mean : 0,
    ci95: n > 1 ? { low: mean - halfWidth, high: mean + halfWidth, halfWidth } : null,
  };
}

/** Items processed per second over the measured engine time. */
export function throughput(items: number, totalMs: number): number {
  return totalMs > 0 ? (items * 1000) / totalMs : 0;
}

/**
 * The mean across independent rounds with its 95% confidence interval
 * (Student t, rounds − 1 degrees of freedom). Batches of one round share the
 * machine's state of that minute, so they are not independent draws; round
 * means are, which makes this the interval a re-run would fall into. Null
 * interval for a single round: one draw says nothing about the spread.
 */
export function betweenRoundsOf(means: readonly number[]): {
  readonly rounds: number;
  readonly means: readonly number[];
  readonly mean: number;
  readonly stdev: number;
  readonly ci95: { readonly low: number; readonly high: number; readonly halfWidth: number } | null;
} {
  const s = computeStatistics(means);
  return { rounds: s.count, means: [...means], mean: s.mean, stdev: s.stdev, ci95: s.ci95 };
}
