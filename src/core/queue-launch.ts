/**
 * A queue of `inferbench worker`s as a run sees it: connected, with the
 * workers that registered, able to serve the run's local files by hash and
 * to run jobs of any registered kind (./queue-jobs.ts), handing each job's
 * outcome back. The queue launcher (src/launchers/queue/queue-connection.ts)
 * implements it and sits above the scenarios, so a scenario's run is handed
 * it as a value (`Launchers.queue`, ./launch-jobs.ts) and builds its own
 * jobs and cells around it; these shapes live in the core so that both see
 * them while neither imports the other.
 */
import type { EnvironmentInfo } from './results.js';
import type { FileManifest, QueueJob } from './queue-jobs.js';

export interface WorkerEngine {
  readonly id: string;
  readonly available: boolean;
  /** Why not, with how to enable it; absent when available. */
  readonly reason?: string;
  /** Runtime versions the engine reported (onnxruntime-node, tfjs-core…), when available. */
  readonly versions?: Readonly<Record<string, string>>;
}

/** What a worker registers. */
export interface WorkerInfo {
  readonly name: string;
  /** Short hash of the hardware and software facts: two workers with equal ids ran on alike machines. */
  readonly id: string;
  readonly environment: EnvironmentInfo;
  readonly engines: readonly WorkerEngine[];
  readonly concurrency: number;
  readonly heartbeat: number;
}

/** What a job returns through the queue to the coordinator. */
export type JobOutcome =
  | { readonly kind: 'cells'; readonly worker: string; readonly cells: readonly unknown[] }
  /** Every live worker (or the target) refused: reasons by worker; `skip` when each reason is a missing engine. */
  | { readonly kind: 'refused'; readonly refused: Readonly<Record<string, string>>; readonly skip: boolean };

/** What became of one job, from the coordinator's point of view. */
export type CoordinatorOutcome =
  | JobOutcome
  /** BullMQ failed it (e.g. its workers kept dying: stalled more than allowed). */
  | { readonly kind: 'failed'; readonly reason: string }
  /** Ctrl-C: removed before any worker took it, or still running when the wait ran out. */
  | { readonly kind: 'interrupted'; readonly reason: string };

export interface JobHooks<Job extends QueueJob = QueueJob> {
  readonly onOutcome: (job: Job, outcome: CoordinatorOutcome) => Promise<void>;
  readonly signal?: AbortSignal | undefined;
  /** How long Ctrl-C waits for jobs already running on workers. */
  readonly drainTimeoutMs: number;
  /** How long jobs wait for a worker that may run them to be alive (`--worker-timeout`); then their cells are errored. */
  readonly workerTimeoutMs: number;
  /** A line for the user while jobs wait: no worker is alive (and how long it waits), or one is back. */
  readonly onNotice?: (line: string) => void;
}

/** How a run connects to its queue. `url` may hold a password, so it is never recorded (the queue gives the masked form). */
export interface QueueConnectOptions {
  readonly url: string;
  /** Only these workers (by `--name`), each of which must register; null: wait for any one. */
  readonly workers: readonly string[] | null;
  /** `HOST:PORT` to serve local model folders and dataset files on; null when none is needed. */
  readonly serveModels: string | null;
  /** How long to wait for workers to register; default 10 s. */
  readonly waitForWorkersMs?: number;
}

/** A connected queue with its workers, for one run. */
export interface WorkerQueue {
  /** The queue's address with any password masked, for the record and messages. */
  readonly masked: string;
  /** The workers asked for, as they registered when the queue connected. */
  readonly workers: readonly WorkerInfo[];
  /** Every worker registered now: one that joined later (a replacement) included. */
  registered(): Promise<readonly WorkerInfo[]>;
  /** A local folder or file as workers fetch it by hash (a UserError without `serveModels`); `what` names it in that error. */
  serve(path: string, what: string): Promise<FileManifest>;
  /** Adds every job and resolves once each has an outcome (or rejects with a UserError when Redis goes away). */
  runJobs<Job extends QueueJob>(jobs: readonly Job[], hooks: JobHooks<Job>): Promise<void>;
  close(): Promise<void>;
}
