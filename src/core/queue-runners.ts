/**
 * The registry of queue job runners: what an `inferbench worker` does with
 * an accepted job, `{ kind, payload }` as every launcher takes it (the kind
 * is the job's schema, the payload the checked job), looked up by its
 * kind, so the worker runs the jobs of any registered kind and names no
 * scenario. It sits beside the kinds' registry (src/core/queue-jobs.ts),
 * not in it, because a runner measures through the run layer (Benchmark,
 * isolated children), which the core may not import; the kind keeps what the queue needs
 * (its payload checks, engine and log line), the runner what the worker does.
 *
 * A runner is registered only for a schema whose kind is registered: the
 * worker runs nothing whose every field its kind did not check first
 * (src/launchers/queue/worker-loop.ts parses the job before it runs it).
 */
import { UserError } from '../core/errors.js';
import type { CellHost } from '../core/results.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import type { Job } from '../core/launch-jobs.js';
import { queueJobKind, type QueueJob } from '../core/queue-jobs.js';

/** What a worker gives every runner: its engines and plug-ins, its cache and its name. */
export interface JobRunnerContext {
  readonly registry: EngineRegistry;
  /** The worker's own `--engine-module` plug-ins (never taken from a job). */
  readonly engineModules: readonly string[];
  readonly cacheRoot: string;
  readonly host: Omit<CellHost, 'retries'>;
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
