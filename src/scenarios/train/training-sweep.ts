/**
 * The `inferbench train` sweep: models × engines × sequence lengths × batch
 * sizes, one training cell each. Engines without a training capability
 * (`Engine.openTrainer`) give skipped cells with the engine's reason; an
 * engine that fails or runs out of memory on one batch records it on that
 * cell and the sweep goes on. Bad input (a model whose output is not logits
 * over the labels) ends the run with its UserError.
 */
import type { EngineRegistry } from '../../core/engine-registry.js';
import type { EngineTrainer, TrainOptimizer } from '../../core/engine.js';
import { CellSkip, describeError } from '../../core/errors.js';
import { rotated } from '../../core/round-order.js';
import type { ErroredTrainingCell, SkippedTrainingCell, TrainingCell, TrainingCellKey } from './training-results.js';
import { FixedLengthModel } from '../../models/fixed-length-model.js';
import type { TextClassification } from '../../models/text-classification.js';
import type { DataRow } from '../../../datasets/dataset.js';
import type { ResolvedColumns } from '../../../datasets/columns.js';
import { isOutOfMemory, measureTrainingRound, type TrainingRound } from './measure-training-cell.js';
import { TrainingRounds } from './training-rounds.js';
import { trainingBatches, type TrainingBatch } from './training-batches.js';

export const DEFAULT_TRAIN_BATCH_SIZES: readonly number[] = [8];
export const DEFAULT_TRAIN_STEPS = 20;
export const DEFAULT_WARM_STEPS = 2;
export const DEFAULT_TRAIN_ROUNDS = 3;
export const DEFAULT_LEARNING_RATE = 0.01;

/** Progress events for a CLI or a web page; `index` counts cells recorded so far. */
export type TrainingProgress =
  | { readonly kind: 'cell-start'; readonly index: number; readonly total: number; readonly key: TrainingCellKey; readonly round: number; readonly rounds: number }
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

/** One model on one engine: the cells one trainer open measures one round of (in this process or an isolated one). */
export interface TrainingGroup {
  readonly model: TextClassification;
  readonly engine: string;
  readonly keys: readonly TrainingCellKey[];
  /** Which round of its cells this open measures, from 0: every round is a fresh open. */
  readonly round: number;
  readonly settings: TrainingSettings;
  readonly rows: readonly DataRow[];
  readonly columns: ResolvedColumns;
  readonly registry: EngineRegistry;
  readonly signal: AbortSignal | undefined;
}

export interface TrainingGroupHooks {
  readonly onStart: (key: TrainingCellKey) => void;
  readonly onRound: (round: TrainingRound) => Promise<void>;
}

/** Where a group runs: this process (measureTrainingGroup) or a child process (train-child-job.ts). */
export type TrainingGroupRunner = (group: TrainingGroup, hooks: TrainingGroupHooks) => Promise<void>;

/** Opens the trainer, or says why the engine cannot train. */
async function openTrainer(group: TrainingGroup): Promise<{ trainer: EngineTrainer; openMs: number } | { skip: string } | { error: unknown }> {
  const { model, settings } = group;
  try {
    const engine = await group.registry.require(group.engine);
    if (!engine.openTrainer) return { skip: engine.trainingUnsupported ?? `${group.engine} has no training capability (Engine.openTrainer)` };
    const start = performance.now();
    const trainer = await engine.openTrainer(model.onnxPath(), { threads: settings.threads, precision: model.precision, optimizer: settings.optimizer, learningRate: settings.learningRate });
    return { trainer, openMs: performance.now() - start };
  } catch (err) {
    if (err instanceof CellSkip) return { skip: err.message };
    return { error: err };
  }
}

/** Opens the engine and measures one round of every cell of the group, in this process. */
export async function measureTrainingGroup(group: TrainingGroup, hooks: TrainingGroupHooks): Promise<void> {
  const { model, settings, round } = group;
  const failAll = async (cell: (key: TrainingCellKey) => ErroredTrainingCell | SkippedTrainingCell) => {
    for (const key of group.keys) await hooks.onRound({ kind: 'failed', key, round, cell: cell(key) });
  };
  if (group.signal?.aborted) {
    for (const key of group.keys) await hooks.onRound({ kind: 'interrupted', key, round });
    return;
  }
  const opened = await openTrainer(group);
  if ('skip' in opened) return failAll((key) => ({ ...key, state: 'skipped', reason: opened.skip }));
  if ('error' in opened) {
    const oom = isOutOfMemory(opened.error);
    return failAll((key) => ({ ...key, state: 'errored', reason: `open failed: ${describeError(opened.error)}`, ...(oom ? { outOfMemory: true } : {}) }));
  }
  const cache = new Map<string, TrainingBatch[]>();
  try {
    for (const key of group.keys) {
      if (group.signal?.aborted) {
        await hooks.onRound({ kind: 'interrupted', key, round });
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
      await hooks.onRound(await measureTrainingRound(opened.trainer, { key, batches, warmSteps: settings.warmSteps, steps: settings.steps, round, openMs: opened.openMs, signal: group.signal }));
    }
  } finally {
    await opened.trainer.dispose();
  }
}

/**
 * Runs the sweep in interleaved rounds, as `run` does: round r opens every
 * model × engine afresh, in an order rotated by r, and measures one round of
 * each of its cells, so drift on a shared machine (10–20 % from minute to
 * minute) falls on every engine alike instead of on whichever ran last.
 * Each cell goes to `onCell` as soon as its last round is in, in sweep order.
 */
export async function runTrainingSweep(o: TrainingSweepOptions): Promise<void> {
  const seqs = o.sequenceLengths ?? [null];
  const runGroup = o.runGroup ?? measureTrainingGroup;
  const settings: TrainingSettings = { steps: o.steps, warmSteps: o.warmSteps, rounds: o.rounds, optimizer: o.optimizer, learningRate: o.learningRate, threads: o.threads };
  const groups = o.models.flatMap((model) =>
    o.engines.map((engine) => ({
      model,
      engine,
      keys: seqs.flatMap((sequenceLength) => o.batchSizes.map((batchSize): TrainingCellKey => ({ model: model.name, engine, batchSize, sequenceLength, requestedThreads: o.threads }))),
    })));
  const allKeys = groups.flatMap((g) => g.keys);
  const book = new TrainingRounds(allKeys, settings);
  const total = allKeys.length;
  let index = 0;
  const record = async (aborted: boolean) => {
    for (const cell of book.takeReady(aborted)) {
      o.onProgress?.({ kind: 'cell-done', index: index++, total, cell });
      await o.onCell(cell);
    }
  };
  for (let round = 0; round < o.rounds && !o.signal?.aborted; round++) {
    for (const g of rotated(groups, round)) {
      const keys = g.keys.filter((k) => book.wants(k, round));
      if (keys.length === 0) continue;
      await runGroup(
        { model: g.model, engine: g.engine, keys, round, settings, rows: o.rows, columns: o.columns, registry: o.registry, signal: o.signal },
        {
          onStart: (key) => o.onProgress?.({ kind: 'cell-start', index, total, key, round, rounds: o.rounds }),
          onRound: async (result) => book.add(result),
        },
      );
      await record(false);
    }
  }
  await record(true);
}
