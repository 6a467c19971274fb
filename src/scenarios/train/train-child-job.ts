/**
 * The training scenario's child job: each round of each model × engine
 * group trains in a fresh process, so one engine's allocations never
 * inflate another's peak RSS and a crash becomes an errored cell. The
 * parent half (`trainChildRunner`) turns a group into plain data (the rows
 * the parent read, so the child trains on exactly those); the child half
 * (registered as 'train') re-creates the model from its folder, opens one
 * engine's trainer and sends each round back.
 */
import type { TrainingCellKey } from './training-results.js';
import type { ModelSpec } from '../../models/model-spec.js';
import { TextClassification } from '../../models/text-classification.js';
import { registerChildJob, type Launcher } from '../../core/launch-jobs.js';
import type { TrainingRound } from './measure-training-cell.js';
import { measureTrainingGroup, type TrainingGroup, type TrainingGroupRunner } from './training-sweep.js';

/** The group's own fields, with the model as its spec in place of the live object, which cannot cross a process. */
export interface TrainingChildJob extends Omit<TrainingGroup, 'model' | 'registry' | 'signal'> {
  readonly model: ModelSpec;
}

const keyId = (k: TrainingCellKey): string => `${k.model}|${k.engine}|${k.batchSize}|${k.sequenceLength}`;

/** A group runner that runs one child per model × engine and round through `launch`. */
export function trainChildRunner(launch: Launcher): TrainingGroupRunner {
  return (group, hooks) =>
    launch<TrainingCellKey, TrainingRound>(
      {
        kind: 'train',
        payload: {
          model: group.model.isolationSpec(),
          engine: group.engine,
          keys: group.keys,
          round: group.round,
          settings: group.settings,
          rows: group.rows,
          columns: group.columns,
        } satisfies TrainingChildJob,
        keys: group.keys,
        keyId,
        resultId: (r) => keyId(r.key),
        failed: (key, reason) => ({ kind: 'failed', key, round: group.round, cell: { ...key, state: 'errored', reason } }),
      },
      { onStart: hooks.onStart, onResult: hooks.onRound },
      group.signal,
    );
}

registerChildJob<TrainingChildJob, TrainingCellKey, TrainingRound>('train', async (job, io) => {
  if (job.model.kind !== 'text-classification') throw new Error(`training needs a text-classification model, got a ${job.model.kind} spec`);
  const { dir, kind: _kind, ...options } = job.model;
  const model = await new TextClassification(dir, options).init();
  await measureTrainingGroup(
    { model, engine: job.engine, keys: job.keys, round: job.round, settings: job.settings, rows: job.rows, columns: job.columns, registry: io.registry, signal: io.signal },
    { onStart: io.start, onRound: io.result },
  );
});
