/**
 * What an `inferbench worker` runs: the job's runner, looked up by its
 * schema (queue-runners.ts). Importing this registers the runner of every
 * built-in kind a worker runs, one import line per scenario, as
 * src/scenarios/builtin-queue-jobs.ts does for the kinds; a plug-in's or a
 * test's kind registers its own runner and runs with no edit here or in
 * the worker.
 */
import './classify-queue-runner.js';

export { runQueueJob, type JobRunnerContext } from './queue-runners.js';
