/**
 * What `inferbench generate` records: the generation counterpart of
 * RunRecord. One cell is one engine at one batch size, prompt length and
 * number of new tokens; it keeps every raw per-token time so any statistic
 * can be recomputed from results.json alone.
 */
import type { BetweenRounds, CellVerdict, HostNoise, RunRecordOf } from '../../core/results.js';
import type { SessionDescription } from '../../core/engine-session.js';
import type { SampleStatistics } from '../../core/statistics.js';

/** Identifies one cell of a generation sweep. */
export interface GenerationCellKey {
  readonly model: string;
  readonly engine: string;
  readonly batchSize: number;
  /** Prompt tokens per row, fixed by truncating or repeating the prompt's tokens. */
  readonly promptLength: number;
  /** max_new_tokens (and min_new_tokens when the output length is fixed). */
  readonly newTokens: number;
  readonly requestedThreads: number | null;
}

/** One measured `generate()` call; times in ms, memory in bytes. */
export interface GenerationSample {
  /** Time to first token: prefill plus the first sample. */
  readonly firstTokenMs: number;
  /** Time of each later token. */
  readonly restTokenMs: readonly number[];
  /** Whole call. */
  readonly totalMs: number;
  /** Round this call was measured in, from 0 (each round is a fresh engine open); absent in records from before rounds (one round). */
  readonly round?: number;
  /** Tokens actually generated per row (fewer than asked when every row hit EOS early). */
  readonly generatedTokens: number;
  /** Peak RSS at each token (the kernel's high-water mark), since the cell's warmup ended when peakRssScope is 'since-reset'. */
  readonly rssBytesPerToken: readonly number[];
  /** The exact peak RSS read when the call returned (per-token readings may be up to 2 ms old); absent in older records. */
  readonly peakRssBytes?: number;
  readonly peakRssScope: 'since-reset' | 'process';
  /** GPU memory in use at each token; null without a GPU. */
  readonly gpuBytesPerToken: readonly (number | null)[] | null;
}

export interface CompletedGenerationCell extends GenerationCellKey {
  readonly state: 'completed';
  readonly session: SessionDescription;
  readonly openMs: number;
  /** generate() calls at full output length before measuring. */
  readonly warmupRuns: number;
  readonly samples: readonly GenerationSample[];
  /** Statistics of the TTFT of each call. */
  readonly ttft: SampleStatistics;
  /** Time per output token after the first: statistics of every later token of every call; null when none was generated. */
  readonly tpot: SampleStatistics | null;
  /** batch × later tokens / their total time, over all calls; null with no later token. */
  readonly decodeTokensPerSecond: number | null;
  /** batch × prompt tokens / TTFT, over all calls. */
  readonly prefillTokensPerSecond: number;
  readonly peakRssBytes: number;
  readonly peakGpuBytes: number | null;
  /** Calls that stopped on EOS before newTokens (possible only when the output length is not fixed). */
  readonly earlyStops: number;
  /**
   * TTFT and TPOT across rounds: each round's mean (TTFT over its calls, TPOT
   * over every later token of its calls) is one observation, with the 95%
   * interval of `betweenRoundsOf`. Absent in records from before rounds.
   */
  readonly betweenRounds?: { readonly ttft: BetweenRounds; readonly tpot: BetweenRounds | null };
  /** VALID or NOISY by `run`'s rule on both TTFT and TPOT (src/core/stop-rule.ts); absent in records from before rounds. */
  readonly verdict?: CellVerdict;
  /** Host noise read before and after each round's timed calls (as run's rounds record it); shown as verdict warnings. */
  readonly hostNoise?: readonly { readonly round: number; readonly before: HostNoise; readonly after: HostNoise }[];
  /** Set when Ctrl-C stopped this cell before its last round: its rounds so far are kept, and it is never VALID. */
  readonly interrupted?: boolean;
}

export interface ErroredGenerationCell extends GenerationCellKey {
  readonly state: 'errored';
  readonly reason: string;
  readonly session?: SessionDescription;
}

export interface SkippedGenerationCell extends GenerationCellKey {
  readonly state: 'skipped';
  readonly reason: string;
}

export type GenerationCell = CompletedGenerationCell | ErroredGenerationCell | SkippedGenerationCell;

/** Everything one `inferbench generate` produced; every report renders from it alone. */
export interface GenerationRunRecord extends RunRecordOf<GenerationCell> {
  readonly kind: 'generate';
}
