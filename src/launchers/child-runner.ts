import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { MeasuredRound } from '../scenarios/classify/measure-cell.js';
import type { CellKey } from '../core/results.js';
import { PARENT_LIFELINE_FD, type ChildMessage, type IsolatedJob, type ParentMessage } from './isolated-job.js';
import type { GroupLauncher } from './launcher.js';
import type { ModelSpec } from '../models/model-spec.js';

const CHILD_ENTRY = fileURLToPath(new URL('./cell-child.js', import.meta.url));

/** Callbacks as the child reports progress. */
export interface ChildHooks {
  readonly onStart: (key: CellKey) => void;
  readonly onMeasured: (measured: MeasuredRound) => Promise<void>;
}

function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

/**
 * Runs one round of one load group in a fresh Node process, so one engine's allocations
 * and crashes never touch another's figures. Cells the child did not finish
 * come back as errored with the way it ended; the promise itself never
 * rejects for a child failure, so the sweep goes on.
 */
export function runInChild(job: IsolatedJob, hooks: ChildHooks, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    // fd 4 is the child's lifeline (see cell-child.ts): nothing is written; our death closes it and the child exits with us.
    const child = fork(CHILD_ENTRY, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc', 'pipe'], serialization: 'advanced' });
    const lifeline = child.stdio[PARENT_LIFELINE_FD];
    // A pipe error here (the child gone first) is not ours to report; the exit handler does.
    lifeline?.on('error', () => undefined);
    const done = new Set<number>();
    let current: CellKey | undefined;
    let fatal: string | undefined;
    let chain = Promise.resolve();
    const onAbort = () => {
      if (child.connected) child.send({ type: 'abort' } satisfies ParentMessage);
    };
    signal?.addEventListener('abort', onAbort);
    child.on('message', (message: ChildMessage) => {
      chain = chain.then(async () => {
        if (message.type === 'cell-start') {
          current = message.key;
          hooks.onStart(message.key);
        } else if (message.type === 'measured') {
          done.add(message.measured.key.batchSize);
          await hooks.onMeasured(message.measured);
        } else if (message.type === 'fatal') {
          fatal = message.message;
        }
      });
    });
    child.on('error', (err) => {
      fatal ??= `could not start the isolated process: ${err.message}`;
    });
    child.on('exit', (code, sig) => {
      signal?.removeEventListener('abort', onAbort);
      lifeline?.destroy();
      void chain.then(async () => {
        for (const key of job.keys) {
          if (done.has(key.batchSize)) continue;
          const where = current?.batchSize === key.batchSize ? ' while measuring this cell' : ' before this cell ran';
          const reason = fatal ?? `isolated process ${exitText(code, sig)}${where}`;
          await hooks.onMeasured({ kind: 'failed', key, cell: { ...key, state: 'errored', reason } });
        }
        resolve();
      });
    });
    if (signal?.aborted) onAbort();
    try {
      child.send({ type: 'job', job } satisfies ParentMessage);
    } catch (err) {
      // A job that cannot be sent (a value that cannot be cloned) must not leave the child waiting for it forever, keeping us alive.
      fatal ??= `could not send the job to the isolated process: ${err instanceof Error ? err.message : String(err)}`;
      child.kill('SIGKILL');
    }
  });
}

/** What a child needs to rebuild a group's model and rows, since functions and objects cannot cross. */
export interface ChildSource {
  readonly model: ModelSpec;
  readonly dataset: string | null;
  readonly textColumn: string | null;
  readonly labelColumn: string | null;
  readonly limit: number | null;
  readonly engineModules: readonly string[];
}

/** Runs each round of each load group in a fresh Node process (see `runInChild`). */
export function childProcessLauncher(source: ChildSource): GroupLauncher {
  return {
    name: 'child-process',
    run: (group, hooks) =>
      runInChild(
        {
          ...source,
          engine: typeof group.engine === 'string' ? group.engine : group.engine.id,
          threads: group.threads,
          keys: group.keys,
          stop: group.settings.stop,
          warmupBatches: group.settings.warmupBatches,
          parityRows: group.settings.parityRows,
          round: group.round,
        },
        hooks,
        group.signal,
      ),
  };
}
