/**
 * What a classification run asks of a queue of workers (`run --queue`):
 * the queue sweep itself (src/runs/queue-sweep.ts) speaks to Redis through
 * the queue launcher, which sits above scenarios, so the run is handed an
 * opener for it by its caller and knows it only by this interface.
 */
import type { CellResult } from '../../core/results.js';
import type { Dataset } from '../../../datasets/dataset.js';
import type { PlannedModel } from '../model-plan.js';
import type { ProgressEvent } from './benchmark-options.js';
import type { RunConfig } from './run-config.js';

/** `run --queue` options; `url` may hold a password, so it is never recorded (the record gets the masked form). */
export interface QueueRunOptions {
  readonly url: string;
  /** Run the whole sweep on every worker (or on `workers`), for a cross-hardware table. */
  readonly onEachWorker: boolean;
  /** Only these workers (by `--name`); null: every live worker. */
  readonly workers: readonly string[] | null;
  /** `HOST:PORT` to serve local model folders and dataset files on; null when none is needed. */
  readonly serveModels: string | null;
  /** How long to wait for workers to register; default 10 s. */
  readonly waitForWorkersMs?: number;
  /** How long Ctrl-C waits for jobs running on workers; default 60 s. */
  readonly drainTimeoutMs?: number;
  /** How long jobs wait for a worker that may run them to be alive (`--worker-timeout`); default DEFAULT_WORKER_TIMEOUT_MS. */
  readonly workerTimeoutMs?: number;
  /** Lines for the user while the sweep waits (no worker alive, and for how long). */
  readonly onNotice?: (line: string) => void;
}

/** The run options a queue sweep reads. */
export type QueueSweepConfig = Pick<
  RunConfig,
  | 'architectures' | 'sequenceLengths' | 'batchSizes' | 'threads' | 'dataset' | 'datasetConfig' | 'split' | 'textColumn'
  | 'labelColumn' | 'limit' | 'warmupBatches' | 'rounds' | 'stop' | 'maxCv' | 'parity'
>;

/** A connected queue with its workers, for one run. */
export interface ClassifyQueue {
  /** The engines to sweep: those asked for, or every engine some worker has. */
  engines(requested: readonly string[] | null): string[];
  /** What the record keeps of the queue: its masked URL and the workers' fingerprints. */
  recorded(): Record<string, unknown>;
  /** Engines no worker can run, with why. */
  unavailable(engines: readonly string[]): { id: string; reason: string }[];
  /** Hashes the rows and models and serves local files, before the sweep. */
  prepare(plan: readonly PlannedModel[], config: QueueSweepConfig, dataset: Dataset): Promise<void>;
  /** Enqueues every open group and records each cell as it comes back; resolves when every job has an outcome. */
  sweep(
    plan: readonly PlannedModel[],
    engines: readonly string[],
    run: { readonly id: string; readonly config: QueueSweepConfig; readonly dataset: Dataset; readonly signal: AbortSignal | undefined },
    record: (cell: CellResult) => Promise<void>,
    onProgress: ((event: ProgressEvent) => void) | undefined,
  ): Promise<void>;
  close(): Promise<void>;
}

/** `run --queue` as a run's hooks carry it: the options, and how to open the queue (the caller's, since it speaks to Redis). */
export interface QueueRun {
  readonly options: QueueRunOptions;
  readonly open: (options: QueueRunOptions) => Promise<ClassifyQueue>;
}
