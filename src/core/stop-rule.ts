import type { CellVerdict } from './results.js';
import type { SampleStatistics } from './statistics.js';

/**
 * When a cell stops measuring. It measures at least one full pass over the
 * rows (so every engine sees the same rows), then keeps cycling the rows
 * until both minimums hold, and stops at whichever maximum comes first.
 */
export interface StopRule {
  readonly minTimeMs: number;
  readonly minBatches: number;
  readonly maxTimeMs: number;
  readonly maxBatches: number;
}

/** Warmup repeats the first batch until its latency is steady, within caps. */
export interface WarmupRule {
  /** Batches always run, steady or not. */
  readonly minBatches: number;
  readonly maxBatches: number;
  readonly maxTimeMs: number;
  /** The last `window` warmup times must lie within `tolerance` × their median of each other. */
  readonly window: number;
  readonly tolerance: number;
}

/**
 * Defaults: 2 s and 20 batches at least, 10 s at most per cell. The cap keeps
 * the default sweep (including pure-JS tfjs-cpu) near a minute and a half on
 * 2 cores; a cell it cuts short says so in its verdict. Raise it with --max-time.
 */
export const DEFAULT_STOP_RULE: StopRule = { minTimeMs: 2000, minBatches: 20, maxTimeMs: 10_000, maxBatches: 1_000_000 };
export const DEFAULT_WARMUP_RULE: WarmupRule = { minBatches: 2, maxBatches: 50, maxTimeMs: 10_000, window: 3, tolerance: 0.1 };
/**
 * Above this coefficient of variation of per-batch latency a cell is NOISY.
 * Loose by default because batches of real text differ in padded length, so
 * per-batch latency varies by design; the precision of the mean is judged by
 * MAX_CI_HALF_WIDTH instead.
 */
export const DEFAULT_MAX_CV = 1.0;
/** Above this relative half-width of the mean's 95% confidence interval a cell is NOISY. */
export const MAX_CI_HALF_WIDTH = 0.05;

/** True once the last `window` times spread by at most `tolerance` of their median. */
export function isSteady(times: readonly number[], rule: Pick<WarmupRule, 'window' | 'tolerance'>): boolean {
  if (times.length < rule.window) return false;
  const last = [...times.slice(-rule.window)].sort((a, b) => a - b);
  const median = last[Math.floor(last.length / 2)] as number;
  const spread = (last[last.length - 1] as number) - (last[0] as number);
  return median > 0 ? spread / median <= rule.tolerance : spread === 0;
}

/** Whether warmup may end: minimum met and steady, or a cap reached. */
export function warmupDone(times: readonly number[], elapsedMs: number, rule: WarmupRule): { done: boolean; steady: boolean } {
  if (times.length < rule.minBatches) return { done: false, steady: false };
  const steady = isSteady(times, rule);
  if (steady) return { done: true, steady: true };
  return { done: times.length >= rule.maxBatches || elapsedMs >= rule.maxTimeMs, steady: false };
}

/** Measuring state the stop rule looks at. */
export interface MeasureProgress {
  readonly elapsedMs: number;
  readonly batches: number;
  /** At least one full pass over the rows is done. */
  readonly passComplete: boolean;
}

/** `continue`, `done` (minimums met after a full pass) or `max` (a maximum cut measuring short). */
export function stopDecision(p: MeasureProgress, rule: StopRule): 'continue' | 'done' | 'max' {
  const minimumsMet = p.elapsedMs >= rule.minTimeMs && p.batches >= rule.minBatches;
  if (p.passComplete && minimumsMet) return 'done';
  if (p.elapsedMs >= rule.maxTimeMs || p.batches >= rule.maxBatches) return 'max';
  return 'continue';
}

/**
 * VALID only when the stop rule was met, there were enough samples and the
 * spread is below the CV threshold; otherwise NOISY with every reason.
 */
export function verdictOf(
  latency: SampleStatistics,
  context: { readonly stoppedAtMax: boolean; readonly warmupSteady: boolean; readonly rule: StopRule; readonly maxCv: number },
): CellVerdict {
  const reasons: string[] = [];
  if (latency.count < context.rule.minBatches) reasons.push(`only ${latency.count} batches (minimum ${context.rule.minBatches})`);
  if (context.stoppedAtMax && latency.total < context.rule.minTimeMs) {
    reasons.push(`stopped at the maximum after ${(latency.total / 1000).toFixed(1)} s of engine time (minimum ${(context.rule.minTimeMs / 1000).toFixed(1)} s)`);
  }
  if (latency.cv > context.maxCv) reasons.push(`CV ${(latency.cv * 100).toFixed(1)}% above ${(context.maxCv * 100).toFixed(0)}%`);
  const relHalf = latency.ci95 && latency.mean > 0 ? latency.ci95.halfWidth / latency.mean : null;
  if (relHalf !== null && relHalf > MAX_CI_HALF_WIDTH) {
    reasons.push(`95% CI of the mean ±${(relHalf * 100).toFixed(1)}% above ±${(MAX_CI_HALF_WIDTH * 100).toFixed(0)}%`);
  }
  if (!context.warmupSteady) reasons.push('warmup never became steady');
  return { status: reasons.length === 0 ? 'VALID' : 'NOISY', reasons };
}
