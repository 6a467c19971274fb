import { fileURLToPath } from 'node:url';
import type { MeasuredRound } from '../scenarios/classify/measure-cell.js';
import type { CellKey } from '../core/results.js';
import type { IsolatedJob } from './isolated-job.js';
import { forkChild } from './fork-child.js';
import type { GroupLauncher } from './launcher.js';
import type { ModelSpec } from '../models/model-spec.js';

const CHILD_ENTRY = fileURLToPath(new URL('./cell-child.js', import.meta.url));

/** Callbacks as the child reports progress. */
export interface ChildHooks {
  readonly onStart: (key: CellKey) => void;
  readonly onMeasured: (measured: MeasuredRound) => Promise<void>;
}

/**
 * Runs one round of one load group in a fresh Node process, so one engine's
 * allocations and crashes never touch another's figures. Cells the child
 * did not finish come back as errored with the way it ended; the promise
 * itself never rejects for a child failure, so the sweep goes on.
 */
export function runInChild(job: IsolatedJob, hooks: ChildHooks, signal: AbortSignal | undefined): Promise<void> {
  const keyId = (key: CellKey): string => String(key.batchSize);
  return forkChild<IsolatedJob, CellKey, MeasuredRound>(
    {
      entry: CHILD_ENTRY,
      job,
      keys: job.keys,
      keyId,
      resultId: (measured) => keyId(measured.key),
      failed: (key, reason) => ({ kind: 'failed', key, cell: { ...key, state: 'errored', reason } }),
    },
    { onStart: hooks.onStart, onResult: hooks.onMeasured },
    signal,
  );
}

/** What a child needs to rebuild a group's model and rows, since functions and objects cannot cross. */
export interface ChildSource {
  readonly model: ModelSpec;
  readonly dataset: string | null;
  readonly textColumn: string | null;
  readonly labelColumn: string | null;
  readonly limit: number | null;
  readonly skipRows: number;
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
