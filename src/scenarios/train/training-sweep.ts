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

export interface TrainingSweepOptions {
  readonly models: readonly TextClassification[];
  readonly engines: readonly string[];
  readonly batchSizes: readonly number[];
  /** null: batches padded to their longest row, as `run` does. */
  readonly sequenceLengths: readonly number[] | null;
  readonly steps: number;
  readonly warmSteps: number;
  readonly rounds: number;
  readonly optimizer: TrainOptimizer;
  readonly learningRate: number;
  readonly threads: number | null;
  /** The dataset's first rows, in order (warmSteps + steps batches of the largest batch size). */
  readonly rows: readonly DataRow[];
  readonly columns: ResolvedColumns;
  readonly registry: EngineRegistry;
  readonly signal?: AbortSignal;
  readonly onProgress?: (event: TrainingProgress) => void;
  readonly onCell: (cell: TrainingCell) => Promise<void>;
}

/** Loads (once per model and engine) the trainer, or says why the engine cannot train. */
async function loadTrainer(model: TextClassification, engineId: string, o: TrainingSweepOptions): Promise<{ trainer: EngineTrainer; loadMs: number } | { skip: string } | { error: unknown }> {
  try {
    const engine = await o.registry.require(engineId);
    if (!engine.loadTrainer) return { skip: engine.trainingUnsupported ?? `${engineId} has no training capability (Engine.loadTrainer)` };
    const start = performance.now();
    const trainer = await engine.loadTrainer(model.onnxPath(), { threads: o.threads, precision: model.precision, optimizer: o.optimizer, learningRate: o.learningRate });
    return { trainer, loadMs: performance.now() - start };
  } catch (err) {
    if (err instanceof CellSkip) return { skip: err.message };
    return { error: err };
  }
}

/** Runs every cell in order, handing each to `onCell` as soon as it is done. */
export async function runTrainingSweep(o: TrainingSweepOptions): Promise<void> {
  const seqs = o.sequenceLengths ?? [null];
  const total = o.models.length * o.engines.length * seqs.length * o.batchSizes.length;
  let index = 0;
  const batchCache = new Map<string, TrainingBatch[]>();
  const batchesFor = async (model: TextClassification, seq: number | null, batchSize: number): Promise<TrainingBatch[]> => {
    const key = `${model.name}|${seq}|${batchSize}`;
    let batches = batchCache.get(key);
    if (!batches) {
      const target = seq === null ? model : new FixedLengthModel(model, seq, model.vocabSize, model.maxLength);
      batches = await trainingBatches(target, o.rows, o.columns, model.labels, batchSize, o.warmSteps + o.steps);
      batchCache.set(key, batches);
    }
    return batches;
  };
  for (const model of o.models) {
    for (const engineId of o.engines) {
      const keys: TrainingCellKey[] = seqs.flatMap((sequenceLength) =>
        o.batchSizes.map((batchSize) => ({ model: model.name, engine: engineId, batchSize, sequenceLength, requestedThreads: o.threads })));
      const emit = async (cell: TrainingCell): Promise<void> => {
        o.onProgress?.({ kind: 'cell-done', index: index++, total, cell });
        await o.onCell(cell);
      };
      if (o.signal?.aborted) {
        for (const key of keys) await emit({ ...key, state: 'skipped', reason: NOT_RUN_INTERRUPTED });
        continue;
      }
      const loaded = await loadTrainer(model, engineId, o);
      if ('skip' in loaded || 'error' in loaded) {
        for (const key of keys) {
          await emit('skip' in loaded
            ? { ...key, state: 'skipped', reason: loaded.skip }
            : { ...key, state: 'errored', reason: `load failed: ${describeError(loaded.error)}`, ...(isOutOfMemory(loaded.error) ? { outOfMemory: true } : {}) });
        }
        continue;
      }
      try {
        for (const key of keys) {
          if (o.signal?.aborted) {
            await emit({ ...key, state: 'skipped', reason: NOT_RUN_INTERRUPTED });
            continue;
          }
          o.onProgress?.({ kind: 'cell-start', index, total, key });
          const batches = await batchesFor(model, key.sequenceLength, key.batchSize);
          const cell = await measureTrainingCell(loaded.trainer, {
            key, batches, warmSteps: o.warmSteps, steps: o.steps, rounds: o.rounds,
            optimizer: o.optimizer, learningRate: o.learningRate, loadMs: loaded.loadMs,
            ...(o.signal ? { signal: o.signal } : {}),
          });
          await emit(cell);
        }
      } finally {
        await loaded.trainer.dispose();
      }
    }
  }
}
