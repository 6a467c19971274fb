/**
 * Body of every isolated child process (scenario-child.ts is the entry,
 * which watches the parent first and passes in the engine registry):
 * reads the one job message, registers its engine modules in that registry
 * and, for a kind that is not built in, imports the module that registers
 * it, then runs the child job registered for its kind
 * (src/scenarios/child-jobs.ts) with the registry in its io. Nothing here names a scenario; each
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
import type { EngineRegistry } from '../core/engine-registry.js';

/** Imports the module that registers a job kind; only a `file:` URL is taken (isFileUrl). */
async function importJobModule(module: string): Promise<void> {
  if (!isFileUrl(module)) throw new Error(`the child job module must be a file: URL, not '${module}'`);
  await import(module);
}

/** Serves the one job this child is sent, its engines looked up in `registry`. */
export function serveChildJob(registry: EngineRegistry): void {
  markIsolatedProcess();
  serveForkedJob<ChildJobMessage, unknown, unknown>(
    async (job, io) => {
      await registerEngineModules(job.engineModules, registry);
      if (job.module !== undefined) await importJobModule(job.module);
      await childJob(job.kind)(job.payload, { ...io, registry });
    },
    (err): err is UserError => err instanceof UserError,
  );
}
