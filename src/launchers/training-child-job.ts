/**
 * Body of an isolated training process (training-child.ts is the entry,
 * which watches the parent first): re-creates the model from its folder,
 * loads one engine's trainer, measures one round of every cell of the group
 * on the rows the parent sent and sends each round back (see `trainingChildLauncher`).
 */
import { defaultRegistry } from '../../engines/registry.js';
import { UserError } from '../core/errors.js';
import type { TrainingCellKey } from '../core/training-results.js';
import type { TrainingRound } from '../scenarios/train/measure-training-cell.js';
import { TextClassification } from '../models/text-classification.js';
import { measureTrainingGroup } from '../scenarios/train/training-sweep.js';
import { registerEngineModules } from './engine-modules.js';
import { serveForkedJob } from './fork-child.js';
import type { TrainingChildJob } from './training-launcher.js';

serveForkedJob<TrainingChildJob, TrainingCellKey, TrainingRound>(
  async (job, io) => {
    await registerEngineModules(job.engineModules);
    if (job.model.kind !== 'text-classification') throw new Error(`training needs a text-classification model, got a ${job.model.kind} spec`);
    const { dir, kind: _kind, ...options } = job.model;
    const model = await new TextClassification(dir, options).init();
    await measureTrainingGroup(
      { model, engine: job.engine, keys: job.keys, round: job.round, settings: job.settings, rows: job.rows, columns: job.columns, registry: defaultRegistry, signal: io.signal },
      { onStart: io.start, onRound: io.result },
    );
  },
  (err): err is UserError => err instanceof UserError,
);
