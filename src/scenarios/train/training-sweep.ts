/**
 * The `inferbench train` sweep: models × engines × sequence lengths × batch
 * sizes, one training cell each. Engines without a training capability
 * (`Engine.loadTrainer`) give skipped cells with the engine's reason; an
 * engine that fails or runs out of memory on one batch records it on that
 * cell and the sweep goes on. Bad input (a model whose output is not logits
 * over the labels) ends the run with its UserError.
 */
import type { EngineRegistry } from '../../core/engine-registry.js';
import type { EngineTrainer, TrainOptimizer } from '../../core/engine.js';
import { CellSkip, describeError } from '../../core/errors.js';
import { NOT_RUN_INTERRUPTED } from '../../core/results.js';
import type { TrainingCell, TrainingCellKey } from '../../core/training-results.js';
import { FixedLengthModel } from '../../models/fixed-length-model.js';
import type { TextClassification } from '../../models/text-classification.js';
import type { DataRow } from '../../../datasets/dataset.js';
import type { ResolvedColumns } from '../../../datasets/columns.js';
import { isOutOfMemory, measureTrainingCell } from './measure-training-cell.js';
import { trainingBatches, type TrainingBatch } from './training-batches.js';

export const DEFAULT_TRAIN_BATCH_SIZES: readonly number[] = [8];
export const DEFAULT_TRAIN_STEPS = 20;
export const DEFAULT_WARM_STEPS = 2;
export const DEFAULT_TRAIN_ROUNDS = 3;
export const DEFAULT_LEARNING_RATE = 0.01;

/** Progress events for a CLI or a web page; `index` counts cells from 0. */
export type TrainingProgress =
  | { readonly kind: 'cell-start'; readonly index: number; readonly total: number; readonly key: TrainingCellKey }
  | { readonly kind: 'cell-done'; readonly index: number; readonly total: number; readonly cell: TrainingCell };

/** A sweep: the settings every cell shares, plus what it sweeps over and where it reports. */
export interface TrainingSweepOptions extends TrainingSettings {
  readonly models: readonly TextClassification[];
  readonly engines: readonly string[];
  readonly batchSizes: readonly number[];
  /** null: batches padded to their longest row, as `run` does. */
  readonly sequenceLengths: readonly number[] | null;
  /** The dataset's first rows, in order (warmSteps + steps batches of the largest batch size). */
  readonly rows: readonly DataRow[];
  readonly columns: ResolvedColumns;
  readonly registry: EngineRegistry;
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: TrainingProgress) => void;
  readonly onCell: (cell: TrainingCell) => Promise<void>;
  /** Where each model × engine group runs; default this process. */
  readonly runGroup?: TrainingGroupRunner;
}

/** The settings every cell of a sweep shares. */
export interface TrainingSettings {
  readonly steps: number;
  readonly warmSteps: number;
  readonly rounds: number;
  readonly optimizer: TrainOptimizer;
  readonly learningRate: number;
  readonly threads: number | null;
}

/** One model on one engine: the cells one trainer load measures (in this process or an isolated one). */
export interface TrainingGroup {
  readonly model: TextClassification;
  readonly engine: string;
  readonly keys: readonly TrainingCellKey[];
  readonly settings: TrainingSettings;
  readonly rows: readonly DataRow[];
  readonly columns: ResolvedColumns;
  readonly registry: EngineRegistry;
  readonly signal: AbortSignal | undefined;
}

export interface TrainingGroupHooks {
  readonly onStart: (key: TrainingCellKey) => void;
  readonly onCell: (cell: TrainingCell) => Promise<void>;
}

/** Where a group runs: this process (measureTrainingGroup) or a child process (src/launchers/training-launcher.ts). */
export type TrainingGroupRunner = (group: TrainingGroup, hooks: TrainingGroupHooks) => Promise<void>;

/** Loads the trainer, or says why the engine cannot train. */
async function loadTrainer(group: TrainingGroup): Promise<{ trainer: EngineTrainer; loadMs: number } | { skip: string } | { error: unknown }> {
  const { model, settings } = group;
  try {
    const engine = await group.registry.require(group.engine);
    if (!engine.loadTrainer) return { skip: engine.trainingUnsupported ?? `${group.engine} has no training capability (Engine.loadTrainer)` };
    const start = performance.now();
    const trainer = await engine.loadTrainer(model.onnxPath(), { threads: settings.threads, precision: model.precision, optimizer: settings.optimizer, learningRate: settings.learningRate });
    return { trainer, loadMs: performance.now() - start };
  } catch (err) {
    if (err instanceof CellSkip) return { skip: err.message };
    return { error: err };
  }
}

/** Loads the engine once and measures every cell of the group, in this process. */
export async function measureTrainingGroup(group: TrainingGroup, hooks: TrainingGroupHooks): Promise<void> {
  const { model, settings } = group;
  if (group.signal?.aborted) {
    for (const key of group.keys) await hooks.onCell({ ...key, state: 'skipped', reason: NOT_RUN_INTERRUPTED });
    return;
  }
  const loaded = await loadTrainer(group);
  if ('skip' in loaded || 'error' in loaded) {
    for (const key of group.keys) {
      await hooks.onCell('skip' in loaded
        ? { ...key, state: 'skipped', reason: loaded.skip }
        : { ...key, state: 'errored', reason: `load failed: ${describeError(loaded.error)}`, ...(isOutOfMemory(loaded.error) ? { outOfMemory: true } : {}) });
    }
    return;
  }
  const cache = new Map<string, TrainingBatch[]>();
  try {
    for (const key of group.keys) {
      if (group.signal?.aborted) {
        await hooks.onCell({ ...key, state: 'skipped', reason: NOT_RUN_INTERRUPTED });
        continue;
      }
      hooks.onStart(key);
      const cacheKey = `${key.sequenceLength}|${key.batchSize}`;
      let batches = cache.get(cacheKey);
      if (!batches) {
        const target = key.sequenceLength === null ? model : new FixedLengthModel(model, key.sequenceLength, model.vocabSize, model.maxLength);
        batches = await trainingBatches(target, group.rows, group.columns, model.labels, key.batchSize, settings.warmSteps + settings.steps);
        cache.set(cacheKey, batches);
      }
      await hooks.onCell(await measureTrainingCell(loaded.trainer, {
        key, batches, warmSteps: settings.warmSteps, steps: settings.steps, rounds: settings.rounds,
        optimizer: settings.optimizer, learningRate: settings.learningRate, loadMs: loaded.loadMs,
        ...(group.signal ? { signal: group.signal } : {}),
      }));
    }
  } finally {
    await loaded.trainer.dispose();
  }
}

/** Runs every group in order (models × engines), handing each cell to `onCell` as soon as it is done. */
export async function runTrainingSweep(o: TrainingSweepOptions): Promise<void> {
  const seqs = o.sequenceLengths ?? [null];
  const total = o.models.length * o.engines.length * seqs.length * o.batchSizes.length;
  let index = 0;
  const runGroup = o.runGroup ?? measureTrainingGroup;
  const settings: TrainingSettings = { steps: o.steps, warmSteps: o.warmSteps, rounds: o.rounds, optimizer: o.optimizer, learningRate: o.learningRate, threads: o.threads };
  for (const model of o.models) {
    for (const engine of o.engines) {
      const keys: TrainingCellKey[] = seqs.flatMap((sequenceLength) =>
        o.batchSizes.map((batchSize) => ({ model: model.name, engine, batchSize, sequenceLength, requestedThreads: o.threads })));
      await runGroup(
        { model, engine, keys, settings, rows: o.rows, columns: o.columns, registry: o.registry, signal: o.signal },
        {
          onStart: (key) => o.onProgress?.({ kind: 'cell-start', index, total, key }),
          onCell: async (cell) => {
            o.onProgress?.({ kind: 'cell-done', index: index++, total, cell });
            await o.onCell(cell);
          },
        },
      );
    }
  }
}
