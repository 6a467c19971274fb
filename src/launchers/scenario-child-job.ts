/**
 * Body of every isolated child process (scenario-child.ts is the entry,
 * which watches the parent first): reads the one job message, registers
 * its engine modules, then runs the child job registered for its kind
 * (src/scenarios/child-jobs.ts). Nothing here names a scenario; each
 * scenario folder registers its own job through builtin-child-jobs.ts.
 */
import { UserError } from '../core/errors.js';
import { markIsolatedProcess } from '../core/isolated-process.js';
import { childJob } from '../scenarios/child-jobs.js';
import '../scenarios/builtin-child-jobs.js';
import { registerEngineModules } from './engine-modules.js';
import { serveForkedJob } from './fork-child.js';
import type { ChildJobMessage } from './isolated-launcher.js';

markIsolatedProcess();
serveForkedJob<ChildJobMessage, unknown, unknown>(
  async (job, io) => {
    await registerEngineModules(job.engineModules);
    await childJob(job.kind)(job.payload, io);
  },
  (err): err is UserError => err instanceof UserError,
);
