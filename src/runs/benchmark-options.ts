import type { EngineRegistry } from '../core/engine-registry.js';
import { UserError } from '../core/errors.js';
import { requirePositiveInteger } from '../core/number-checks.js';
import { checkRange } from '../core/option-ranges.js';
export { requirePositiveInteger } from '../core/number-checks.js';
import type { CellKey, CellResult } from '../core/results.js';
import type { TensorMap } from '../core/tensor.js';
import type { ModelSpec } from '../models/model-spec.js';
import type { Dataset, DataRow } from '../../datasets/dataset.js';
import type { ResolvedColumns } from '../../datasets/columns.js';
import { DEFAULT_MAX_CV, DEFAULT_ROUNDS, DEFAULT_STOP_RULE, MIN_ROUND_TIME_MS, type StopRule } from '../core/stop-rule.js';
import { DEFAULT_PARITY_ROWS, DEFAULT_PARITY_TOLERANCE, type RowOutputs } from '../core/parity.js';

/** Progress of a sweep, for a CLI line or a web page. */
export type ProgressEvent =
  | {
      readonly kind: 'cell-start';
      readonly index: number;
      readonly total: number;
      readonly engine: string;
      readonly batchSize: number;
      /** Round about to run (from 0) of `rounds`. */
      readonly round: number;
      readonly rounds: number;
    }
  | {
      /** One round of one cell finished; the cell itself is recorded (`cell-done`) once all its rounds are. */
      readonly kind: 'round-done';
      readonly index: number;
      readonly total: number;
      readonly model: string;
      /** Fixed sequence length of the cell (`--sequence-lengths`), set by the sweep; absent on dataset text. */
      readonly sequenceLength?: number | null;
      readonly engine: string;
      readonly batchSize: number;
      readonly requestedThreads: number | null;
      readonly round: number;
      readonly rounds: number;
      /** Mean engine time per batch of the round and its timed batches and whole passes; null when the round failed. */
      readonly meanMs: number | null;
      readonly batches: number;
      readonly passes: number;
      readonly totalMs: number;
    }
  | { readonly kind: 'cell-done'; readonly index: number; readonly total: number; readonly cell: CellResult };

/** Turns a batch of raw rows into model inputs; timed as its own phase. */
export type DataItemProcessCallback = (rows: readonly DataRow[], columns: ResolvedColumns) => TensorMap | Promise<TensorMap>;

/** What a user may set on a Benchmark; everything is optional. */
export interface BenchmarkOptions {
  /** A Dataset, a local path, or absent for the embedded default dataset. */
  readonly dataset?: Dataset | string;
  /** Batch sizes to sweep; default 1, 8 (DEFAULT_BATCH_SIZES). */
  readonly batchSizes?: readonly number[];
  /** Rows per cell after the dataset callback; null streams every row. Default 256. */
  readonly limit?: number | null;
  /**
   * Rows at the start of the dataset no cell streams (after the dataset
   * callback, before the limit): the calibration rows of a static-INT8
   * variant, kept out of the rows accuracy is measured on. Default 0.
   */
  readonly skipRows?: number;
  /**
   * Untimed batches at least before timing, per round. Every round always
   * runs one untimed warm pass over every row (every padded shape seen); this
   * only adds batches when a pass holds fewer. 0 means the warm pass alone. Default 2.
   */
  readonly warmupBatches?: number;
  /** Stop rule of a whole cell, split evenly across its rounds: minimum time and batches, maximum time and batches. */
  readonly stop?: Partial<StopRule>;
  /**
   * Independent rounds per cell, each a fresh engine open (a fresh process
   * when isolating), interleaved across engines; the 95% CI is computed
   * across round means. Default 3.
   */
  readonly rounds?: number;
  /** Coefficient of variation above which a cell is NOISY. Default 0.2. */
  readonly maxCv?: number;
  /**
   * Output agreement with a reference engine on the same rows. `reference`
   * defaults to `onnx-cpu`; null turns parity off.
   */
  readonly parity?: { readonly reference?: string | null; readonly tolerance?: number; readonly rows?: number };
  /**
   * Intra-op threads for engines that can set them; null means the engine
   * default. A list sweeps thread counts (core scaling): every engine is
   * opened once per count.
   */
  readonly threads?: number | null | readonly (number | null)[];
  readonly textColumn?: string;
  readonly labelColumn?: string;
  /** Select, filter, shuffle or take rows, lazily. */
  readonly datasetProcessCallback?: (dataset: Dataset) => Dataset | Promise<Dataset>;
  /** Build model inputs from rows; defaults to the model's own `prepareBatch`. */
  readonly dataItemProcessCallback?: DataItemProcessCallback;
  /** Aborting stops the sweep after the current batch; measured cells are kept. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** Called after every cell, e.g. to save partial results. */
  readonly onCell?: (cell: CellResult, cellsSoFar: readonly CellResult[]) => void | Promise<void>;
  /**
   * Called with the warm-pass outputs (up to the parity row cap) of the
   * reference engine's cells and of every cell that failed parity, with
   * the parity already judged (`--save-outputs`).
   */
  readonly onOutputs?: (cell: CellKey, reason: 'reference' | 'parity failed', outputs: RowOutputs) => void;
  readonly registry?: EngineRegistry;
  /**
   * Run every engine open in a fresh child process, so one engine's
   * allocations never inflate another's memory figures and a crash becomes
   * an errored cell. Needs the model and dataset to be re-creatable there.
   */
  readonly isolate?: boolean;
  /** How an isolated child re-creates the model; defaults to the model's own `isolationSpec()`. */
  readonly modelSpec?: ModelSpec;
  /** Modules exporting `engines: Engine[]` to register in isolated children, besides those registered in `registry` (`registerEngineModules`). */
  readonly engineModules?: readonly string[];
  /**
   * `--profile`: after each cell's timed rounds, one untimed profiled pass
   * over its rows in the last round's open, read by the engine's own
   * instrument into `cell.profile` (op types, one taxonomy). The timed
   * figures are the same with or without it. Default false.
   */
  readonly profile?: boolean;
}

/** BenchmarkOptions with every default filled in, in this one place. */
export interface ResolvedBenchmarkOptions {
  readonly dataset: Dataset | string | undefined;
  readonly batchSizes: readonly number[];
  readonly limit: number | null;
  readonly skipRows: number;
  readonly warmupBatches: number;
  /** The whole cell's rule; `perRoundRule(stop, rounds)` is one round's share. */
  readonly stop: StopRule;
  readonly rounds: number;
  readonly maxCv: number;
  readonly parity: { readonly reference: string | null; readonly tolerance: number; readonly rows: number };
  /** Thread counts to sweep; `[null]` means one pass at the engine default. */
  readonly threads: readonly (number | null)[];
  readonly textColumn: string | undefined;
  readonly labelColumn: string | undefined;
  readonly datasetProcessCallback: ((dataset: Dataset) => Dataset | Promise<Dataset>) | undefined;
  readonly dataItemProcessCallback: DataItemProcessCallback | undefined;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: (event: ProgressEvent) => void;
  readonly onCell: (cell: CellResult, cellsSoFar: readonly CellResult[]) => void | Promise<void>;
  readonly onOutputs: BenchmarkOptions['onOutputs'];
  readonly registry: EngineRegistry;
  readonly isolate: boolean;
  readonly modelSpec: ModelSpec | undefined;
  readonly engineModules: readonly string[];
  readonly profile: boolean;
}

export { DEFAULT_BATCH_SIZES } from '../core/stop-rule.js';
import { DEFAULT_BATCH_SIZES, DEFAULT_ROWS } from '../core/stop-rule.js';
import { standaloneRegistry } from '../models/standalone-registry.js';
/** Rows per cell when none are asked for (DEFAULT_ROWS says why so few). */
export const DEFAULT_LIMIT = DEFAULT_ROWS;
export const DEFAULT_WARMUP_BATCHES = 2;

/** Fills defaults and validates; conflicting or invalid options fail here with the fix. */
export function resolveBenchmarkOptions(
  options: BenchmarkOptions = {},
  names: { batchSizes?: string; limit?: string; threads?: string; rounds?: string; maxTime?: string } = {},
): ResolvedBenchmarkOptions {
  const batchName = names.batchSizes ?? 'batchSizes';
  const batchSizes = options.batchSizes ?? DEFAULT_BATCH_SIZES;
  if (batchSizes.length === 0) throw new UserError(`${batchName} is empty`, `give ${batchName} at least one batch size, e.g. 1,8,32`);
  batchSizes.forEach((b) => requirePositiveInteger(b, batchName));
  const limit = options.limit === undefined ? DEFAULT_LIMIT : options.limit;
  if (limit !== null) requirePositiveInteger(limit, names.limit ?? 'limit');
  const warmupBatches = options.warmupBatches ?? DEFAULT_WARMUP_BATCHES;
  if (!Number.isInteger(warmupBatches) || warmupBatches < 0) {
    throw new UserError(`warmupBatches must be a whole number ≥ 0, got ${warmupBatches}`, 'pass 0 for the warm pass alone (every round always runs one untimed pass over the rows)');
  }
  const roundsName = names.rounds ?? 'rounds';
  const rounds = options.rounds ?? DEFAULT_ROUNDS;
  if (typeof rounds !== 'number' || !Number.isInteger(rounds) || rounds < 1) {
    throw new UserError(`${roundsName} must be a whole number of at least 1, got ${String(rounds)}`, `pass ${roundsName} ${DEFAULT_ROUNDS} (the default); 2 or more give an interval across rounds`);
  }
  const threadList = options.threads === undefined || options.threads === null ? [null] : typeof options.threads === 'number' ? [options.threads] : options.threads;
  if (threadList.length === 0) throw new UserError(`${names.threads ?? 'threads'} is empty`, 'give at least one thread count, or leave it out for the engine default');
  const threads = [...new Set(threadList)];
  for (const t of threads) {
    if (t === null) continue;
    requirePositiveInteger(t, names.threads ?? 'threads');
    checkRange('threads', t, 'field', { name: names.threads ?? 'threads' });
  }
  const stop: StopRule = { ...DEFAULT_STOP_RULE, ...options.stop };
  for (const [k, v] of Object.entries(stop)) {
    if (!(typeof v === 'number' && v >= 0)) throw new UserError(`stop.${k} must be a number ≥ 0, got ${String(v)}`, 'use milliseconds for times and whole numbers for batches');
  }
  if (stop.maxTimeMs < stop.minTimeMs) {
    throw new UserError(`the maximum time (${stop.maxTimeMs} ms) is below the minimum time (${stop.minTimeMs} ms)`, 'raise --max-time or lower --min-time');
  }
  if (stop.maxBatches < stop.minBatches) {
    throw new UserError(`the maximum batches (${stop.maxBatches}) is below the minimum batches (${stop.minBatches})`, 'raise the maximum or lower --min-batches');
  }
  if (stop.maxTimeMs / rounds < MIN_ROUND_TIME_MS) {
    const maxTimeName = names.maxTime ?? 'stop.maxTimeMs';
    const most = Math.max(1, Math.floor(stop.maxTimeMs / MIN_ROUND_TIME_MS));
    throw new UserError(
      `${rounds} rounds leave ${Math.round(stop.maxTimeMs / rounds)} ms per round within the maximum time of ${stop.maxTimeMs / 1000} s (each round needs at least ${MIN_ROUND_TIME_MS} ms for its warm pass and a timed pass)`,
      `lower ${roundsName} to at most ${most}, or raise ${maxTimeName} to at least ${names.maxTime ? `${(rounds * MIN_ROUND_TIME_MS) / 1000} (seconds)` : `${rounds * MIN_ROUND_TIME_MS} (ms)`}`,
    );
  }
  const maxCv = options.maxCv ?? DEFAULT_MAX_CV;
  if (!(maxCv > 0)) throw new UserError(`maxCv must be above 0, got ${maxCv}`, 'pass a fraction such as 0.2 for 20%');
  const parity = {
    reference: options.parity?.reference === undefined ? 'onnx-cpu' : options.parity.reference,
    tolerance: options.parity?.tolerance ?? DEFAULT_PARITY_TOLERANCE,
    rows: options.parity?.rows ?? DEFAULT_PARITY_ROWS,
  };
  if (!(parity.tolerance >= 0)) throw new UserError(`parity tolerance must be ≥ 0, got ${parity.tolerance}`, 'pass e.g. 1e-4');
  return {
    dataset: options.dataset,
    batchSizes: [...new Set(batchSizes)],
    limit,
    skipRows: options.skipRows ?? 0,
    warmupBatches,
    stop,
    rounds,
    maxCv,
    parity,
    threads,
    textColumn: options.textColumn,
    labelColumn: options.labelColumn,
    datasetProcessCallback: options.datasetProcessCallback,
    dataItemProcessCallback: options.dataItemProcessCallback,
    signal: options.signal,
    onProgress: options.onProgress ?? (() => {}),
    onCell: options.onCell ?? (() => {}),
    onOutputs: options.onOutputs,
    registry: options.registry ?? standaloneRegistry(),
    isolate: options.isolate ?? false,
    modelSpec: options.modelSpec,
    // The registry's plug-in modules too (`--engine-module`), so an isolated child knows the engines this process was given.
    engineModules: [...new Set([...(options.engineModules ?? []), ...(options.registry?.engineModules() ?? [])])],
    profile: options.profile === true,
  };
}
