/**
 * What `inferbench load` records: the server scenario's counterpart of
 * RunRecord. One cell is one model on one engine (at one thread count and
 * one dynamic-batcher setting); it keeps every probe it measured, each rate
 * in each round, with every request's raw times, so any figure can be
 * recomputed from results.json alone.
 */
import type { SessionDescription } from '../../core/engine-session.js';
import type { RunRecordOf } from '../../core/results.js';

/** How request arrivals are spaced: Poisson (exponential gaps), constant gaps, or gamma gaps (vLLM's burstiness). */
export type ArrivalProcess = 'poisson' | 'constant' | 'gamma';

export const ARRIVAL_PROCESSES: readonly ArrivalProcess[] = ['poisson', 'constant', 'gamma'];

/** A latency goal: the `percentile`-th percentile of request latency at most `limitMs` (`--slo p99=50ms`). */
export interface LatencyGoal {
  /** 50 … 99.9. */
  readonly percentile: number;
  readonly limitMs: number;
}

/** What every probe of a load run shares. */
export interface LoadSettings {
  readonly arrival: ArrivalProcess;
  /** Gamma shape (vLLM's burstiness): 1 is Poisson, below 1 burstier, above 1 more even. Only read for `gamma`. */
  readonly burstiness: number;
  readonly seed: number;
  /** Minimum measured span of scheduled arrivals per probe (LoadGen's min_duration). */
  readonly durationMs: number;
  /** Minimum measured requests per probe (LoadGen's min_query_count). */
  readonly minQueries: number;
  /** Arrivals at the probe's rate before the measured ones, left out of every figure (the queue reaches its steady state). */
  readonly warmupMs: number;
  /** Dynamic batcher: most requests in one engine call. */
  readonly maxBatch: number;
  /** Dynamic batcher: longest a request waits for a batch to fill, counted from its scheduled arrival (Triton's max_queue_delay). */
  readonly maxWaitMs: number;
  readonly slo: LatencyGoal | null;
}

/**
 * Every measured request of one probe, as columns in scheduled order (the
 * warm-up requests are counted in `LoadProbe.warmupRequests`, not kept).
 * Times are ms; `scheduledMs` counts from the first measured arrival.
 * A request still unfinished when the probe ended (it was still waiting)
 * has `completed` 0, its age at the end as `latencyMs` and `queueMs` (lower
 * bounds) and null for the other parts.
 */
export interface RequestSamples {
  readonly scheduledMs: number[];
  /** Completion minus scheduled arrival: never from when the request was picked up. */
  readonly latencyMs: number[];
  /** 1 when the request completed, 0 when the probe ended first. */
  readonly completed: number[];
  /** Scheduled arrival to the start of its batch (waiting behind earlier batches and for its own to fill). */
  readonly queueMs: (number | null)[];
  /** Tokenize and collate its batch, inputs wrapped for the engine. */
  readonly prepareMs: (number | null)[];
  /** The engine call of its batch. */
  readonly engineMs: (number | null)[];
  /** Post-processing of its batch: scores, label, serialised response. */
  readonly postMs: (number | null)[];
  /** Requests in its batch. */
  readonly batchSize: (number | null)[];
  /** Which engine call of the probe served it, from 0 (warm-up calls included). */
  readonly batchId: (number | null)[];
  /** How late the loop took the request in, against its scheduled arrival (the generator's lateness while idle, the blocked loop otherwise). */
  readonly enqueueLateMs: (number | null)[];
}

/** Figures of one probe (or of several pooled), from `summarizeRequests` (src/scenarios/load/load-summary.ts). */
export interface LoadSummary {
  readonly requests: number;
  readonly completedRequests: number;
  /** Requests the probe ended before (early stop, drain limit, Ctrl-C); their latencies are lower bounds. */
  readonly unfinished: number;
  /** (n − 1) ÷ span of the measured scheduled arrivals. */
  readonly offeredRps: number;
  /** (completed − 1) ÷ span from the first to the last completion. */
  readonly achievedRps: number;
  /** Span of the measured scheduled arrivals, ms. */
  readonly measuredMs: number;
  readonly latency: LatencyPercentiles;
  readonly queueWait: { readonly mean: number; readonly p99: number };
  /** Mean of each part over completed requests. */
  readonly parts: { readonly queueMs: number; readonly prepareMs: number; readonly engineMs: number; readonly postMs: number };
  /** Engine calls formed, by batch size. */
  readonly batchSizes: Readonly<Record<string, number>>;
  /** Mean requests waiting (arrived, not yet started) seen by the arrivals of the first and of the last quarter of the measured span. */
  readonly queueDepth: { readonly firstQuarter: number; readonly lastQuarter: number };
  readonly slo: SloOutcome | null;
  readonly verdict: LoadVerdict;
}

/** Latency percentiles (PERCENTILE_METHOD) over every measured request, unfinished ones at their lower bound. */
export interface LatencyPercentiles {
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p95: number;
  readonly p99: number;
  readonly p999: number;
  readonly max: number;
  /** Smallest lower-bound latency of an unfinished request; a percentile at or above it is itself a lower bound. Null when all completed. */
  readonly censoredFromMs: number | null;
}

/** How a probe did against its latency goal. */
export interface SloOutcome {
  readonly percentile: number;
  readonly limitMs: number;
  /** The goal's percentile of this probe's latencies. */
  readonly valueMs: number;
  readonly met: boolean;
  /** Share of measured requests over the limit, unfinished ones included. */
  readonly overShare: number;
  /** Requests per second that met the limit: the achieved rate × the share of completed requests within it. */
  readonly goodputRps: number;
}

/**
 * VALID only when the probe met its minimum duration and request count,
 * the achieved rate is within 2% of the offered one and the queue did not
 * grow from the first to the last quarter; otherwise why, with the numbers.
 */
export interface LoadVerdict {
  readonly status: 'VALID' | 'overloaded' | 'too short';
  readonly reasons: readonly string[];
}

/** Why a probe was measured: a rate the user asked for, or a step of the peak search. */
export type ProbePurpose = 'rate' | 'bracket' | 'bisect';

/** One rate measured once: its schedule's requests, what stopped it, and its figures. */
export interface LoadProbe {
  readonly round: number;
  /** The rate the schedule was drawn for, requests per second. */
  readonly targetRps: number;
  readonly purpose: ProbePurpose;
  readonly warmupRequests: number;
  /** Why the probe ended before its schedule did, or null. */
  readonly endedEarly: string | null;
  readonly samples: RequestSamples;
  readonly summary: LoadSummary;
  /** Whether it met the latency goal as a VALID measurement (null without a goal). */
  readonly passed: boolean | null;
}

/** One round's peak search: the last passing and the first failing rate. */
export interface PeakRound {
  readonly round: number;
  /** Highest rate that passed; null when every rate tried failed. */
  readonly lastPass: number | null;
  /** Lowest rate above `lastPass` that failed; null when no rate up to the search's ceiling failed. */
  readonly firstFail: number | null;
  readonly probes: number;
  /**
   * A stop (Ctrl-C, SIGTERM) cut the search short: the probe it cut is no
   * evidence, so `lastPass` and `firstFail` come from whole probes only and
   * the interval may be wider than the search's precision.
   */
  readonly interrupted?: true;
}

/** The peak rate of a cell: each round's interval and the spread across rounds. */
export interface LoadPeak {
  readonly rounds: readonly PeakRound[];
  /** Mean of the rounds' last passing rates with a 95% CI across rounds (Student t on the log scale) (null CI for one round). */
  readonly acrossRounds: { readonly mean: number; readonly min: number; readonly max: number; readonly ci95: { readonly low: number; readonly high: number } | null } | null;
}

/** Identifies one cell of a load sweep. */
export interface LoadCellKey {
  readonly model: string;
  readonly engine: string;
  /** The dynamic batcher's maximum batch (the history's batch size column). */
  readonly batchSize: number;
  readonly requestedThreads: number | null;
}

export interface CompletedLoadCell extends LoadCellKey {
  readonly state: 'completed';
  readonly session: SessionDescription;
  /** Load time of the first round. */
  readonly openMs: number;
  /** Mean engine + prepare time of one batch of 1 and one of the maximum batch in the untimed warm pass of the first round: where the peak search starts. */
  readonly serviceMs: { readonly batchOne: number; readonly maxBatch: number };
  readonly rounds: number;
  readonly probes: readonly LoadProbe[];
  readonly peak: LoadPeak | null;
  /** Set when Ctrl-C stopped the cell part-way: its probes are kept. */
  readonly interrupted?: boolean;
}

export interface ErroredLoadCell extends LoadCellKey {
  readonly state: 'errored';
  readonly reason: string;
  readonly session?: SessionDescription;
  /** Probes measured before the failure. */
  readonly probes?: readonly LoadProbe[];
}

export interface SkippedLoadCell extends LoadCellKey {
  readonly state: 'skipped';
  readonly reason: string;
}

export type LoadCell = CompletedLoadCell | ErroredLoadCell | SkippedLoadCell;

/** Everything one `inferbench load` produced; every report renders from it alone. */
export interface LoadRunRecord extends RunRecordOf<LoadCell> {
  readonly kind: 'load';
}
