/**
 * Body of every isolated child process (scenario-child.ts is the entry,
 * which watches the parent first): reads the one job message, registers
 * its engine modules and, for a kind that is not built in, imports the
 * module that registers it, then runs the child job registered for its
 * kind (src/scenarios/child-jobs.ts). Nothing here names a scenario; each
 * scenario folder registers its own job through builtin-child-jobs.ts, and
 * a plug-in's or a test's scenario through the module its launch names.
 */
import { UserError } from '../core/errors.js';
import { markIsolatedProcess } from '../core/isolated-process.js';
import { childJob, isFileUrl } from '../scenarios/child-jobs.js';
import '../scenarios/builtin-child-jobs.js';
import { registerEngineModules } from './engine-modules.js';
import { serveForkedJob } from './fork-child.js';
import type { ChildJobMessage } from './isolated-launcher.js';

/** Imports the module that registers a job kind; only a `file:` URL is taken (isFileUrl). */
async function importJobModule(module: string): Promise<void> {
  if (!isFileUrl(module)) throw new Error(`the child job module must be a file: URL, not '${module}'`);
  await import(module);
}

markIsolatedProcess();
serveForkedJob<ChildJobMessage, unknown, unknown>(
  async (job, io) => {
    await registerEngineModules(job.engineModules);
    if (job.module !== undefined) await importJobModule(job.module);
    await childJob(job.kind)(job.payload, io);
  },
  (err): err is UserError => err instanceof UserError,
);
