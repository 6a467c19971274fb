import type { BetweenRounds, CellVerdict } from './results.js';
import type { SampleStatistics } from './statistics.js';
import { interruptedBy } from './stop-cause.js';

/**
 * When measuring stops. Times and batches are for the whole cell; each
 * round gets its share (`perRoundRule`). A round times whole passes over the
 * rows, at least one, and stops at a pass boundary once both minimums hold,
 * or when the next pass would not fit within the maximum time.
 */
export interface StopRule {
  readonly minTimeMs: number;
  readonly minBatches: number;
  readonly maxTimeMs: number;
  readonly maxBatches: number;
}

/**
 * Defaults for the whole cell, split across its rounds: 1 s of timed engine
 * time and 20 batches at least (in whole passes, so often more); at most 15 s of wall time in all, warm
 * passes included (5 s per round at 3 rounds, of which the warm pass may
 * take half). Over the default DEFAULT_ROWS that fits a warm pass and a
 * timed pass of every Node engine, pure-JS tfjs-cpu at batch 8 included; a
 * cell it cuts short says so in its verdict. Raise it with --max-time.
 */
export const DEFAULT_STOP_RULE: StopRule = { minTimeMs: 1000, minBatches: 20, maxTimeMs: 15_000, maxBatches: 1_000_000 };
/**
 * Batch sizes of a run that names none. With DEFAULT_ROWS they keep the
 * default run (every available Node engine, 3 rounds) within 90 s on a
 * 2-core machine with tfjs-node built; FULL_SWEEP_BATCH_SIZES adds 32. The
 * report says how to ask for the full sweep.
 */
export const DEFAULT_BATCH_SIZES: readonly number[] = [1, 8];
/** The sweep the report points to when a run used the default batch sizes (`--batch-sizes 1,8,32`). */
export const FULL_SWEEP_BATCH_SIZES: readonly number[] = [1, 8, 32];
/**
 * Rows streamed per cell when --limit is not given: the same first rows for
 * every engine and batch size. Why 16 and not 256: pure-JS tfjs-cpu takes
 * ~26 ms a row at batch 1 and ~70 ms a row at batch 8 (padded to the
 * longest row), so over 256 rows neither it nor its GraphModel path could
 * finish one pass within --max-time, each such cell burned its whole 15 s,
 * and the default run took 2 min 20 s. Over 32 rows every engine finished a
 * warm and a timed pass in every round, but the run took 106 s on a quiet
 * machine, 40 s of it in the two pure-JS engines; over 16 rows it took 86.5 s
 * (`npm run bench:default-run`, docs/benchmarks.md). Fast engines still time
 * whole passes until --min-time holds, so their figures keep their precision.
 */
export const DEFAULT_ROWS = 16;
/** The rows of the full sweep the report points to (`--limit 256`). */
export const FULL_SWEEP_ROWS = 256;

/** Independent rounds per cell: the fewest that give a between-round interval with some power (t = 4.30 at 2 df). */
export const DEFAULT_ROUNDS = 3;
/** The least maximum time a round may have: below it a warm pass and one timed pass rarely fit, so the rounds measure nothing. */
export const MIN_ROUND_TIME_MS = 500;
/**
 * Above this coefficient of variation of per-batch latency a cell is NOISY.
 * Loose by default because batches of real text differ in padded length, so
 * per-batch latency varies by design; the precision of the mean is judged by
 * MAX_CI_HALF_WIDTH across rounds instead.
 */
export const DEFAULT_MAX_CV = 1.0;
/** Above this relative half-width of the 95% CI across round means a cell is NOISY. */
export const MAX_CI_HALF_WIDTH = 0.05;

/** One round's share of the cell's rule: times divided by `rounds`, minimum batches rounded up. */
export function perRoundRule(rule: StopRule, rounds: number): StopRule {
  return {
    minTimeMs: rule.minTimeMs / rounds,
    minBatches: Math.ceil(rule.minBatches / rounds),
    maxTimeMs: rule.maxTimeMs / rounds,
    maxBatches: Math.max(1, Math.floor(rule.maxBatches / rounds)),
  };
}

/** Measuring state of a round at a pass boundary. */
export interface PassProgress {
  readonly elapsedMs: number;
  readonly batches: number;
  /** Whole timed passes done, ≥ 1. */
  readonly passes: number;
}

/**
 * At the end of a whole pass: `done` when both minimums hold, `max` when
 * another pass of the same length would overrun a maximum (so measuring
 * always ends at a pass boundary), `continue` otherwise.
 */
export function passDecision(p: PassProgress, rule: StopRule): 'continue' | 'done' | 'max' {
  if (p.elapsedMs >= rule.minTimeMs && p.batches >= rule.minBatches) return 'done';
  const perPassMs = p.elapsedMs / p.passes;
  const perPassBatches = p.batches / p.passes;
  if (p.elapsedMs + perPassMs > rule.maxTimeMs || p.batches + perPassBatches > rule.maxBatches) return 'max';
  return 'continue';
}

/** Batches seen of the batches in one pass; `exact` false when the pass length is only a lower bound. */
export interface PassShare {
  readonly seen: number;
  readonly of: number;
  readonly exact: boolean;
}

/** What the verdict of a cell measured in rounds looks at. */
export interface RoundsVerdictInput {
  /** Per-batch latency pooled over every round. */
  readonly latency: SampleStatistics;
  readonly betweenRounds: BetweenRounds;
  /** The whole cell's rule (not one round's share). */
  readonly rule: StopRule;
  readonly maxCv: number;
  readonly roundsPlanned: number;
  /** Some round stopped because another pass would overrun the maximum before the minimums held. */
  readonly stoppedAtMax: boolean;
  /** Set when no round finished one timed pass: batches seen of the batches in a pass. */
  readonly partialPass: PassShare | null;
  /** Set when the untimed warm pass was cut at the maximum time: batches run of the batches in a pass. */
  readonly warmPassCut: PassShare | null;
  readonly interrupted: boolean;
  /** Host noise warnings (`hostNoiseWarnings`); shown with the verdict, they do not decide it. */
  readonly warnings: readonly string[];
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * VALID only when every round finished whole passes, the minimums held, and
 * the 95% CI across round means is within ±MAX_CI_HALF_WIDTH of the mean;
 * NOISY otherwise, with every reason. Host noise signs ride along as
 * warnings: when they mattered, the rounds disagree and that decides.
 */
export function verdictOfRounds(v: RoundsVerdictInput): CellVerdict {
  const reasons: string[] = [];
  const rounds = v.betweenRounds.rounds;
  if (v.interrupted) reasons.push(`${interruptedBy()} after ${rounds} of ${v.roundsPlanned} rounds`);
  const of = (s: PassShare) => `${s.exact ? '' : 'at least '}${s.of}`;
  if (v.partialPass) reasons.push(`saw ${v.partialPass.seen} of ${of(v.partialPass)} batches of one pass (raise --max-time)`);
  if (v.warmPassCut) reasons.push(`warm pass cut at the maximum time after ${v.warmPassCut.seen} of ${of(v.warmPassCut)} batches: later shapes were timed cold`);
  if (v.latency.count < v.rule.minBatches) reasons.push(`only ${v.latency.count} batches (minimum ${v.rule.minBatches})`);
  if (v.stoppedAtMax && v.latency.total < v.rule.minTimeMs) {
    reasons.push(`stopped at the maximum after ${(v.latency.total / 1000).toFixed(1)} s of engine time (minimum ${(v.rule.minTimeMs / 1000).toFixed(1)} s)`);
  }
  if (v.latency.cv > v.maxCv) reasons.push(`CV ${pct(v.latency.cv)} above ${(v.maxCv * 100).toFixed(0)}%`);
  const ci = v.betweenRounds.ci95;
  if (ci === null) {
    reasons.push(`${rounds} round: no interval across rounds (use --rounds 2 or more)`);
  } else {
    const rel = v.betweenRounds.mean > 0 ? ci.halfWidth / v.betweenRounds.mean : Infinity;
    if (rel > MAX_CI_HALF_WIDTH) reasons.push(`rounds disagree: 95% CI across ${rounds} rounds ±${pct(rel)} (above ±${(MAX_CI_HALF_WIDTH * 100).toFixed(0)}%)`);
  }
  return { status: reasons.length === 0 ? 'VALID' : 'NOISY', reasons, ...(v.warnings.length > 0 ? { warnings: v.warnings } : {}) };
}
