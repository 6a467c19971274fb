/**
 * Runs each round of each model × engine training group in a fresh Node
 * process, as `run` does, so one engine's allocations never inflate another's
 * peak RSS and a crash becomes an errored cell.
 */
import { fileURLToPath } from 'node:url';
import type { ModelSpec } from '../models/model-spec.js';
import type { TrainingCellKey } from '../core/training-results.js';
import type { TrainingGroup, TrainingGroupRunner } from '../scenarios/train/training-sweep.js';
import type { TrainingRound } from '../scenarios/train/measure-training-cell.js';
import { forkChild } from './fork-child.js';

const CHILD_ENTRY = fileURLToPath(new URL('./training-child.js', import.meta.url));

/**
 * What a training child rebuilds its group from: the group's own fields
 * (the rows are the ones the parent read, so the child trains on exactly
 * those), with the model as its spec and the engine modules to register in
 * place of the live objects, which cannot cross a process.
 */
export interface TrainingChildJob extends Omit<TrainingGroup, 'model' | 'registry' | 'signal'> {
  readonly model: ModelSpec;
  readonly engineModules: readonly string[];
}

const keyId = (k: TrainingCellKey): string => `${k.model}|${k.engine}|${k.batchSize}|${k.sequenceLength}`;

/** A group runner that forks one child per model × engine and round. */
export function trainingChildLauncher(options: { readonly engineModules?: readonly string[] } = {}): TrainingGroupRunner {
  return (group, hooks) =>
    forkChild<TrainingChildJob, TrainingCellKey, TrainingRound>(
      {
        entry: CHILD_ENTRY,
        job: {
          model: group.model.isolationSpec(),
          engine: group.engine,
          keys: group.keys,
          round: group.round,
          settings: group.settings,
          rows: group.rows,
          columns: group.columns,
          engineModules: options.engineModules ?? [],
        },
        keys: group.keys,
        keyId,
        resultId: (r) => keyId(r.key),
        failed: (key, reason) => ({ kind: 'failed', key, round: group.round, cell: { ...key, state: 'errored', reason } }),
      },
      { onStart: hooks.onStart, onResult: hooks.onRound },
      group.signal,
    );
}
