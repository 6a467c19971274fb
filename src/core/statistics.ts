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
  /**
   * 95% confidence interval of the mean, built on the log scale (INTERVAL_METHOD):
   * mean × exp(∓halfWidth / mean), so it never crosses zero. `halfWidth` is
   * Student's t · stdev / √n (n − 1 degrees of freedom), whose ratio to the
   * mean is the interval's half-width in log units. Null for fewer than 2
   * samples.
   */
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

/** The interval method, in words, for README, footers and chart subtitles. */
export const INTERVAL_METHOD =
  '95% interval on the log scale around the mean m of n values: m × exp(±t·s/(m·√n)) (Student t, n − 1 df; the delta method for log m), so it never crosses zero';

/**
 * The 95% interval of a mean from n values with standard deviation `stdev`,
 * on the log scale: times are positive and their spread is multiplicative,
 * so a symmetric Student interval on 3 spread round means can reach below
 * zero (`-192 – 254 ms`). By the delta method, log m has standard error
 * s/(m·√n); the interval is m × exp(±t·s/(m·√n)). It is centred
 * (multiplicatively) on the reported mean itself, and its half-width in log
 * units equals the Student interval's relative half-width, which the VALID
 * rule already judges. A non-positive mean (not a time or a rate) keeps the
 * symmetric Student interval. Null for fewer than 2 values.
 */
export function meanInterval95(mean: number, stdev: number, n: number): { readonly low: number; readonly high: number; readonly halfWidth: number } | null {
  if (n < 2) return null;
  const halfWidth = (tCritical95(n - 1) * stdev) / Math.sqrt(n);
  if (!(mean > 0)) return { low: mean - halfWidth, high: mean + halfWidth, halfWidth };
  const w = Math.exp(halfWidth / mean);
  return { low: mean / w, high: mean * w, halfWidth };
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
    p95: percentileOfSorted(sorted, 95),
    p99: percentileOfSorted(sorted, 99),
    total,
    cv: mean !== 0 ? stdev / mean : 0,
    ci95: meanInterval95(mean, stdev, n),
  };
}

/** Items processed per second over the measured engine time. */
export function throughput(items: number, totalMs: number): number {
  return totalMs > 0 ? (items * 1000) / totalMs : 0;
}

/**
 * ln Γ(x) for x > 0 (Lanczos, g = 7, 9 terms; relative error below 1e-13),
 * the building block of the Student t distribution below.
 */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma needs x > 0, got ${x}`);
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
    -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  const z = x - 1;
  let sum = c[0] as number;
  for (let i = 1; i < c.length; i++) sum += (c[i] as number) / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Continued fraction of the incomplete beta function (modified Lentz), converging for x < (a + 1) / (a + b + 2). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    for (const num of [(m * (b - m) * x) / ((a + m2 - 1) * (a + m2)), (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1))]) {
      d = 1 + num * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + num / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b), for 0 ≤ x ≤ 1. */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(x >= 0 && x <= 1)) throw new RangeError(`x must be in 0..1, got ${x}`);
  if (x === 0 || x === 1) return x;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // Use the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) where the fraction converges fast.
  return x < (a + 1) / (a + b + 2) ? (front * betaContinuedFraction(a, b, x)) / a : 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(T ≤ t) for Student's t with `df` > 0 degrees of freedom (fractional df allowed, as Welch's test needs). */
export function studentTCdf(t: number, df: number): number {
  if (!(df > 0)) throw new RangeError(`degrees of freedom must be > 0, got ${df}`);
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  const tail = 0.5 * regularizedIncompleteBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

/** The t with P(T ≤ t) = p for Student's t with `df` > 0 degrees of freedom; bisection on the CDF to 1e-12. */
export function studentTQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`probability must be in (0, 1), got ${p}`);
  if (p === 0.5) return 0;
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  let lo = 0;
  let hi = 1;
  while (studentTCdf(hi, df) < p) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-12 * Math.max(1, hi); i++) {
    const mid = (lo + hi) / 2;
    if (studentTCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Welch's unequal-variance t-test of mean(b) − mean(a). */
export interface WelchTest {
  readonly t: number;
  /** Welch–Satterthwaite degrees of freedom. */
  readonly df: number;
  /** Two-sided p-value. */
  readonly p: number;
  readonly meanA: number;
  readonly meanB: number;
}

/**
 * Welch's two-sided t-test on two samples of at least 2 values each; null
 * otherwise, because one value carries no evidence of its own spread. When
 * both samples have zero spread the p-value is 1 for equal means and 0
 * otherwise.
 */
export function welchTTest(a: readonly number[], b: readonly number[]): WelchTest | null {
  if (a.length < 2 || b.length < 2) return null;
  const sa = computeStatistics(a);
  const sb = computeStatistics(b);
  const va = sa.stdev ** 2 / a.length;
  const vb = sb.stdev ** 2 / b.length;
  const diff = sb.mean - sa.mean;
  const se = Math.sqrt(va + vb);
  if (se === 0) return { t: diff === 0 ? 0 : Math.sign(diff) * Infinity, df: a.length + b.length - 2, p: diff === 0 ? 1 : 0, meanA: sa.mean, meanB: sb.mean };
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  const t = diff / se;
  return { t, df, p: Math.min(1, 2 * studentTCdf(-Math.abs(t), df)), meanA: sa.mean, meanB: sb.mean };
}

/** B/A with its 95% interval and the test of B/A = 1 that matches it. */
export interface RatioTest {
  readonly ratio: number;
  readonly low: number;
  readonly high: number;
  /** log(B/A) over its standard error. */
  readonly t: number;
  /** Welch–Satterthwaite degrees of freedom. */
  readonly df: number;
  /** Two-sided p-value of log(B/A) = 0: below 0.05 exactly when [low, high] excludes 1. */
  readonly p: number;
}

/**
 * mean(b) / mean(a) tested on the log scale, the scale of INTERVAL_METHOD:
 * log(B/A) has standard error se, se² = sa²/(na·ma²) + sb²/(nb·mb²) (each
 * side's own log-scale term), with Welch–Satterthwaite degrees of freedom;
 * the interval is ratio · exp(±t·se) and p is the two-sided t-test of
 * log(B/A) = 0 on the same se and df, so p < 0.05 exactly when the interval
 * excludes 1. Null with fewer than 2 values a side or a non-positive mean.
 */
export function ratioTest(a: readonly number[], b: readonly number[]): RatioTest | null {
  if (a.length < 2 || b.length < 2) return null;
  const sa = computeStatistics(a);
  const sb = computeStatistics(b);
  if (!(sa.mean > 0 && sb.mean > 0)) return null;
  const ratio = sb.mean / sa.mean;
  const va = sa.stdev ** 2 / (a.length * sa.mean ** 2);
  const vb = sb.stdev ** 2 / (b.length * sb.mean ** 2);
  const se = Math.sqrt(va + vb);
  const log = Math.log(ratio);
  if (se === 0) return { ratio, low: ratio, high: ratio, t: log === 0 ? 0 : Math.sign(log) * Infinity, df: a.length + b.length - 2, p: log === 0 ? 1 : 0 };
  const df = (va + vb) ** 2 / (va ** 2 / (a.length - 1) + vb ** 2 / (b.length - 1));
  const w = Math.exp(studentTQuantile(0.975, df) * se);
  const t = log / se;
  return { ratio, low: ratio / w, high: ratio * w, t, df, p: Math.min(1, 2 * studentTCdf(-Math.abs(t), df)) };
}

/** The 95% interval of mean(b) / mean(a) of `ratioTest`. */
export function ratioInterval95(a: readonly number[], b: readonly number[]): { readonly ratio: number; readonly low: number; readonly high: number } | null {
  const r = ratioTest(a, b);
  return r === null ? null : { ratio: r.ratio, low: r.low, high: r.high };
}

/**
 * The mean across independent rounds with its 95% confidence interval
 * (INTERVAL_METHOD, rounds − 1 degrees of freedom). Batches of one round share the
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

/**
 * P(X ≥ k) for X ~ Binomial(n, q): the regularized incomplete beta
 * I_q(k, n − k + 1) (the identity LoadGen's early stopping uses, see
 * mlcommons/inference loadgen/early_stopping.cc). 1 for k ≤ 0, 0 for k > n.
 */
export function binomialTailAtLeast(k: number, n: number, q: number): number {
  if (!Number.isInteger(k) || !Number.isInteger(n) || n < 0) throw new RangeError(`binomial tail needs whole k and n ≥ 0, got k=${k}, n=${n}`);
  if (!(q >= 0 && q <= 1)) throw new RangeError(`probability must be in 0..1, got ${q}`);
  if (k <= 0) return 1;
  if (k > n) return 0;
  return regularizedIncompleteBeta(q, k, n - k + 1);
}
