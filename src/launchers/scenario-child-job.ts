/**
 * Body of every isolated child process (scenario-child.ts is the entry,
 * which watches the parent first, registers the built-in child jobs and
 * passes in the engine registry):
 * takes the one job message, registers its engine modules and, for a kind
 * that is not built in, imports the module that registers it (the launch
 * names it: `Launch.module`), runs the child job registered for the kind
 * (src/core/launch-jobs.ts) with the registry in its io, relays its cells, and exits 0 when done or 1
 * after a fatal error, sent to the parent first. A disconnected parent (a
 * second Ctrl-C) ends the child at once. Nothing here names a scenario.
 */
import { UserError } from '../core/errors.js';
import { markIsolatedProcess } from '../core/isolated-process.js';
import { childJob, isFileUrl } from '../core/launch-jobs.js';
import { STOP_SIGNALS, setStopCause, stopLabel, type StopSignal } from '../core/stop-cause.js';
import type { ChildJobMessage, ForkedChildMessage, ForkedParentMessage } from './child-protocol.js';
import { registerEngineModules } from './engine-modules.js';
import type { EngineRegistry } from '../core/engine-registry.js';

/** Imports the module that registers a job kind; only a `file:` URL is taken (isFileUrl). */
async function importJobModule(module: string): Promise<void> {
  if (!isFileUrl(module)) throw new Error(`the child job module must be a file: URL, not '${module}'`);
  await import(module);
}

const send = (message: ForkedChildMessage<unknown, unknown>): Promise<void> =>
  new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });

/** Runs the job of one message to its end, then exits. */
async function serve(job: ChildJobMessage, signal: AbortSignal, registry: EngineRegistry): Promise<never> {
  try {
    await registerEngineModules(job.engineModules, registry);
    if (job.module !== undefined) await importJobModule(job.module);
    await childJob(job.kind)(job.payload, {
      registry,
      signal,
      start: (key) => void send({ type: 'cell-start', key }),
      result: (result) => send({ type: 'result', result }),
    });
    await send({ type: 'done' });
    process.exit(0);
  } catch (err) {
    const user = err instanceof UserError;
    await send({ type: 'fatal', message: err instanceof Error ? err.message : String(err), userError: user, ...(user && err.fix ? { fix: err.fix } : {}) });
    process.exit(1);
  }
}

/** Serves the one job this child is sent, its engines looked up in `registry` (the child entry's default one). */
export function serveChildJob(registry: EngineRegistry): void {
  markIsolatedProcess();
  const controller = new AbortController();
  // The same signals stop the child as the parent (a terminal's Ctrl-C, a process group's SIGTERM or SIGHUP reach both): after the current unit.
  for (const sig of Object.keys(STOP_SIGNALS) as StopSignal[]) {
    process.on(sig, () => {
      setStopCause(stopLabel(sig));
      controller.abort();
    });
  }
  process.on('disconnect', () => process.exit(130));
  process.on('message', (message: ForkedParentMessage) => {
    if (message.type === 'abort') {
      if (message.cause) setStopCause(message.cause);
      controller.abort();
      return;
    }
    void serve(message.job, controller.signal, registry);
  });
}
