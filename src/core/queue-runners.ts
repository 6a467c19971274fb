/**
 * The registry of queue job runners: what an `inferbench worker` does with
 * an accepted job, `{ kind, payload }` as every launcher takes it (the kind
 * is the job's schema, the payload the checked job), looked up by its
 * kind, so the worker runs the jobs of any registered kind and names no
 * scenario. A runner measures through the launchers and fetches the files
 * a job names through the queue's file server, both handed to it as values
 * in its context (the worker builds them), so a scenario's runner lives in
 * its own folder and the registry in the core, beside the kinds'
 * (./queue-jobs.ts): the kind keeps what the queue needs (its payload
 * checks, engine and log line), the runner what the worker does.
 *
 * A runner is registered only for a schema whose kind is registered: the
 * worker runs nothing whose every field its kind did not check first
 * (src/launchers/queue/worker-loop.ts parses the job before it runs it).
 */
import { UserError } from './errors.js';
import type { CellHost } from './results.js';
import type { EngineRegistry } from './engine-registry.js';
import type { Job, Launchers } from './launch-jobs.js';
import { queueJobKind, type FileManifest, type QueueJob } from './queue-jobs.js';

/** What a worker gives every runner: its engines and plug-ins, its name, its launchers and its way to fetch served files. */
export interface JobRunnerContext {
  readonly registry: EngineRegistry;
  /** The worker's own `--engine-module` plug-ins (never taken from a job). */
  readonly engineModules: readonly string[];
  readonly host: Omit<CellHost, 'retries'>;
  /** Where the job's groups run on this worker: the worker's launchers (an open in a fresh child process, as a local run isolates). */
  readonly launchers: Launchers;
  /** The local path of a served folder or file a job names, fetched from the coordinator into this worker's cache and checked by hash; `field` names the job's field in errors. */
  readonly fetchFiles: (manifest: FileManifest, field: string) => Promise<string>;
}

/** Measures one accepted job of its kind into the cells posted back; throws (a refusal) when this worker cannot run it. `retries` counts the workers that took it before and died. */
export type QueueJobRunner<Job extends QueueJob = QueueJob> = (job: Job, retries: number, ctx: JobRunnerContext) => Promise<readonly unknown[]>;

const runners = new Map<string, QueueJobRunner>();

/** Registers the runner of a registered kind's jobs; a schema no kind registered, or a second runner for one, is a programming error. */
export function registerQueueJobRunner<Job extends QueueJob>(schema: string, run: QueueJobRunner<Job>): void {
  if (queueJobKind(schema) === undefined) throw new Error(`no queue job kind is registered for schema '${schema}', so its jobs' fields would go unchecked`);
  if (runners.has(schema)) throw new Error(`a queue job runner for schema '${schema}' is already registered`);
  runners.set(schema, run as unknown as QueueJobRunner);
}

/** Runs one accepted job with the runner registered for its kind (its schema); a kind with none is refused, naming it, and nothing runs. */
export function runQueueJob(job: Job, retries: number, ctx: JobRunnerContext): Promise<readonly unknown[]> {
  const run = runners.get(job.kind);
  if (run === undefined) return Promise.reject(new UserError(`this worker runs no job of schema ${job.kind}`));
  return run(job.payload as QueueJob, retries, ctx);
}
