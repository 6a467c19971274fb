/**
 * Runs each round of each model × engine of a load sweep in a fresh Node
 * process, as `run` does: one engine's allocations and threads never
 * disturb another's latencies, and a crash becomes an errored cell while
 * the sweep goes on. Probes come back one by one as they are measured.
 */
import { fileURLToPath } from 'node:url';
import type { LoadCellKey } from '../core/load-results.js';
import type { ModelSpec } from '../models/model-spec.js';
import type { LoadGroup, LoadGroupResult, LoadGroupRunner } from '../scenarios/load/rate-group.js';
import { forkChild } from './fork-child.js';

const CHILD_ENTRY = fileURLToPath(new URL('./load-child.js', import.meta.url));

/**
 * What a load child rebuilds its group from: the group's own fields (the
 * rows the parent read, so the child serves exactly those), with the model
 * as its spec and the engine modules to register in place of the live
 * objects, which cannot cross a process.
 */
export interface LoadChildJob extends Omit<LoadGroup, 'model' | 'registry' | 'signal'> {
  readonly model: ModelSpec;
  readonly engineModules: readonly string[];
}

const keyId = (k: LoadCellKey): string => `${k.model}|${k.engine}|${k.batchSize}|${k.requestedThreads}`;

/** Results that end a key (a failure or the round's end); probes carry an id no key has. */
function resultId(r: LoadGroupResult): string {
  return r.kind === 'probe' ? `${keyId(r.key)}#probe` : keyId(r.key);
}

/** A group runner that forks one child per model × engine and round. */
export function loadChildLauncher(options: { readonly engineModules?: readonly string[] } = {}): LoadGroupRunner {
  return (group, hooks) => {
    const model = (group.model as { isolationSpec?: () => ModelSpec }).isolationSpec?.();
    if (model === undefined) throw new Error(`model ${group.model.name} cannot be re-created in a child process (no isolationSpec)`);
    return forkChild<LoadChildJob, LoadCellKey, LoadGroupResult>(
      {
        entry: CHILD_ENTRY,
        job: { model, engine: group.engine, threads: group.threads, key: group.key, round: group.round, plan: group.plan, rows: group.rows, columns: group.columns, engineModules: options.engineModules ?? [] },
        keys: [group.key],
        keyId,
        resultId,
        failed: (key, reason) => ({ kind: 'failed', key, round: group.round, cell: { ...key, state: 'errored', reason } }),
      },
      { onStart: hooks.onStart, onResult: hooks.onResult },
      group.signal,
    );
  };
}
