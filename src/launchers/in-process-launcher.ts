/**
 * The in-process launcher: runs a launch's job in this process, beside the
 * others, taking the same `{ kind, payload }` job as the isolated and the
 * browser launchers. The job registered for the kind in the table it is
 * given (the in-process jobs of src/core/launch-jobs.ts by default) gets
 * the payload as it is, live objects and all, so nothing is rebuilt and
 * nothing is measured differently from a child process but the process.
 */
import { jobIo, localJobs, type JobRun, type JobTable, type Launcher } from '../core/launch-jobs.js';

/** The launcher that runs each launch's job here; a job's own failures are its results, as in a child. */
export function inProcessLaunch(jobs: JobTable<JobRun<unknown, unknown, unknown>> = localJobs): Launcher {
  return (launch, hooks, signal) => jobs.job(launch.kind)(launch.payload, jobIo(hooks, signal));
}
