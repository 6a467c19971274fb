/**
 * What a classification run asks of a queue of workers (`run --queue`):
 * its options as the command or request gives them, and the run options the
 * queue sweep (./classify-queue-sweep.ts) reads. The queue itself is the
 * queue launcher's, which the run is handed (`Launchers.queue`).
 */
import type { QueueConnectOptions } from '../../core/queue-launch.js';
import type { RunConfig } from './run-config.js';

/** `run --queue` options: how to connect (`url` may hold a password, so it is never recorded: the record gets the masked form), and how to sweep. */
export interface QueueRunOptions extends QueueConnectOptions {
  /** Run the whole sweep on every worker (or on `workers`), for a cross-hardware table. */
  readonly onEachWorker: boolean;
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
