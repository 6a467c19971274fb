/**
 * The example scenario on `inferbench worker`s: its queue job kind (the
 * fields a worker checks before anything runs, src/core/queue-jobs.ts) and
 * the runner a worker hands each accepted job to (src/core/queue-runners.ts),
 * which times the engine's starts in fresh child processes on the worker,
 * through the same isolated launcher and child job as a local run. A
 * built-in scenario's module is named by its registration's `queueJobs`,
 * which `inferbench worker` calls; a plug-in's (this
 * one) registers both when its module is imported.
 */
import { ranged, text } from '../../../src/core/job-checks.js';
import { registerQueueJob, type QueueJob } from '../../../src/core/queue-jobs.js';
import { registerQueueJobRunner } from '../../../src/core/queue-runners.js';
import { scenarioLaunch } from '../../../src/runs/scenario-launch.js';
import { STARTUP_CHILD_MODULE } from './startup-child-job.js';
import { measureStarts } from './startup-run.js';
import { startupCell } from './startup-results.js';

export const STARTUP_JOB_SCHEMA = 'inferbench.startup/1';

/** One engine's starts on a worker. */
export interface StartupQueueJob extends QueueJob {
  readonly engine: string;
  readonly rounds: number;
}

registerQueueJob<StartupQueueJob>({
  schema: STARTUP_JOB_SCHEMA,
  name: 'startup',
  // A job may ask for nothing the command line could not: rounds in the CLI's own range.
  fields: { engine: text(64), rounds: ranged('rounds') },
  engine: (job) => job.engine,
  summary: (job) => `startup of ${job.engine}, ${job.rounds} round${job.rounds === 1 ? '' : 's'}`,
});

registerQueueJobRunner<StartupQueueJob>(STARTUP_JOB_SCHEMA, async (job, retries, ctx) => {
  // Each round in a fresh child on this worker, with the worker's own plug-in engine modules (never a job's).
  const launch = scenarioLaunch({ childModule: STARTUP_CHILD_MODULE }, ctx.engineModules);
  const samples = await measureStarts([job.engine], job.rounds, ctx.registry, launch);
  return [{ ...startupCell(job.engine, samples.get(job.engine) ?? []), host: { ...ctx.host, retries } }];
});
