/**
 * One `inferbench train` run from a plain-JSON config: check inputs, plan
 * the models, read the dataset's first labelled rows, sweep through the run
 * driver (run folder, save after every cell, Ctrl-C), write the files.
 * Input mistakes fail before anything is measured.
 */
import { unavailableText, type EngineRegistry } from '../../core/engine-registry.js';
import type { TrainOptimizer } from '../../core/engine.js';
import { UserError } from '../../core/errors.js';
import { checkRange, type RangeAudience } from '../../core/option-ranges.js';
import type { TrainingCell, TrainingRunRecord } from './training-results.js';
import type { ArchitectureSpec } from '../../models/generated/arch-presets.js';
import type { TextClassification } from '../../models/text-classification.js';
import { writeTrainingFiles } from './training-files.js';
import { checkTrainingLabels, firstRows, requireLabelColumn } from './training-batches.js';
import {
  DEFAULT_LEARNING_RATE, DEFAULT_TRAIN_BATCH_SIZES, DEFAULT_TRAIN_ROUNDS, DEFAULT_TRAIN_STEPS, DEFAULT_WARM_STEPS,
  runTrainingSweep, type TrainingProgress,
} from './training-sweep.js';
import { DEFAULT_OUT_DIR } from '../../core/output-folder.js';
import { planModels } from '../model-plan.js';
import { trainChildRunner } from './train-child-job.js';
import { driveRun, type RunOutcome } from '../run-driver.js';
import { isolatedOf, type ScenarioRunHooks } from '../scenario-registry.js';
import { openRunInputs } from '../run-inputs.js';
import { standaloneRegistry } from '../../models/standalone-registry.js';

/** Everything that defines a training run, resolved, as results.json records it. */
export interface TrainConfig {
  readonly command: 'train';
  /** Model folders or Hub ids; empty means the embedded default unless architectures are given. */
  readonly models: readonly string[];
  readonly architectures: readonly ArchitectureSpec[];
  /** Engines; null means every engine available here (the ones that cannot train give skipped cells). */
  readonly engines: readonly string[] | null;
  readonly batchSizes: readonly number[];
  /** Fixed sequence lengths of synthetic ids; null pads each batch to its longest row, like run. */
  readonly sequenceLengths: readonly number[] | null;
  /** Measured steps per round. */
  readonly steps: number;
  /** Steps before the measured ones in each round, logged but left out of the statistics. */
  readonly warmSteps: number;
  readonly optimizer: TrainOptimizer;
  readonly learningRate: number;
  readonly rounds: number;
  readonly threads: number | null;
  /** Dataset path or Hub id; null means the embedded default dataset. */
  readonly dataset: string | null;
  readonly textColumn: string | null;
  readonly labelColumn: string | null;
  readonly out: string;
  readonly png: boolean;
  /** Each model × engine in its own child process (default true), as run and generate do. */
  readonly isolate: boolean;
}

/** What a train run is given by its caller: the driver's hooks, the engines, its progress events and the isolated launcher (see ScenarioRunHooks). */
export type TrainHooks = ScenarioRunHooks<TrainingRunRecord, TrainingProgress>;

export type TrainOutcome = RunOutcome<TrainingRunRecord>;

/** A config with the defaults filled in, for callers that build one from flags. */
export function trainConfig(partial: Partial<TrainConfig>): TrainConfig {
  return {
    command: 'train',
    models: partial.models ?? [],
    architectures: partial.architectures ?? [],
    engines: partial.engines ?? null,
    batchSizes: partial.batchSizes ?? DEFAULT_TRAIN_BATCH_SIZES,
    sequenceLengths: partial.sequenceLengths ?? null,
    steps: partial.steps ?? DEFAULT_TRAIN_STEPS,
    warmSteps: partial.warmSteps ?? DEFAULT_WARM_STEPS,
    optimizer: partial.optimizer ?? 'sgd',
    learningRate: partial.learningRate ?? DEFAULT_LEARNING_RATE,
    rounds: partial.rounds ?? DEFAULT_TRAIN_ROUNDS,
    threads: partial.threads ?? null,
    dataset: partial.dataset ?? null,
    textColumn: partial.textColumn ?? null,
    labelColumn: partial.labelColumn ?? null,
    out: partial.out ?? DEFAULT_OUT_DIR,
    png: partial.png ?? true,
    isolate: partial.isolate ?? true,
  };
}

/** Checks every number and choice before anything loads; messages name flags or fields as the caller speaks. */
export function checkTrainConfig(config: TrainConfig, audience: RangeAudience = 'field'): void {
  if (config.batchSizes.length === 0) throw new UserError('no batch size given', 'pass --batch-sizes with at least one value, e.g. 8');
  for (const b of config.batchSizes) checkRange('batchSizes', b, audience);
  for (const s of config.sequenceLengths ?? []) checkRange('sequenceLengths', s, audience);
  checkRange('steps', config.steps, audience);
  checkRange('warmSteps', config.warmSteps, audience);
  checkRange('learningRate', config.learningRate, audience);
  checkRange('rounds', config.rounds, audience);
  if (config.threads !== null) checkRange('threads', config.threads, audience);
  if (config.optimizer !== 'sgd' && config.optimizer !== 'adam') {
    throw new UserError(`unknown optimizer ${JSON.stringify(config.optimizer)}`, 'pass --optimizer sgd or --optimizer adam');
  }
}

/** Runs the training benchmark described by `config` through the run driver; each model × engine in a child process unless `isolate` is false. */
export async function executeTrain(config: TrainConfig, hooks: TrainHooks = {}, audience: RangeAudience = 'field'): Promise<TrainOutcome> {
  checkTrainConfig(config, audience);
  const { registry, requested, dataset, available, columns, datasetName } = await openRunInputs(config, hooks.registry ?? standaloneRegistry());
  const labelColumn = requireLabelColumn(columns, datasetName, available);
  const rows = await firstRows(dataset, (config.warmSteps + config.steps) * Math.max(...config.batchSizes));
  const plan = await planModels({ models: config.models, architectures: config.architectures, dtypes: null, revision: null, registry, dataset, columns });
  const models = plan.map((p) => p.model).filter((m): m is TextClassification => m !== null);
  // Before anything trains: a label outside a model's classes wrapped or blamed the model's logits.
  for (const model of models) checkTrainingLabels(rows, rows.distinct, labelColumn, model.labels);
  const repeated = rows.distinct < rows.length
    ? [`dataset ${datasetName} has ${rows.distinct} row${rows.distinct === 1 ? '' : 's'}; the ${rows.length} rows the steps need (steps × largest batch size) repeat ${rows.distinct === 1 ? 'it' : 'them'}, each about ${Math.ceil(rows.length / rows.distinct)} times`]
    : [];
  const outcome = await driveRun<TrainingCell, TrainingRunRecord>(
    {
      kind: 'train',
      out: config.out,
      png: config.png,
      registry,
      engines: requested,
      models: plan.map((p) => p.info),
      recordedConfig: (engines, unavailableEngines) => ({
        ...config,
        enginesResolved: engines,
        unavailableEngines,
        datasetResolved: datasetName,
        labelColumnResolved: columns.label,
        rowsUsed: rows.length,
        rowsDistinct: rows.distinct,
      }),
      sweep: (engines, record) => runTrainingSweep({
        models, engines,
        batchSizes: config.batchSizes,
        sequenceLengths: config.sequenceLengths,
        steps: config.steps,
        warmSteps: config.warmSteps,
        rounds: config.rounds,
        optimizer: config.optimizer,
        learningRate: config.learningRate,
        threads: config.threads,
        rows, columns, registry,
        ...(hooks.signal ? { signal: hooks.signal } : {}),
        ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
        onCell: record,
        ...(config.isolate ? { runGroup: trainChildRunner(isolatedOf(hooks)) } : {}),
      }),
      write: (record, dir, options) => writeTrainingFiles(record, dir, options),
    },
    hooks,
  );
  return { ...outcome, warnings: [...repeated, ...outcome.warnings] };
}

/**
 * The fix of a train run that measured nothing because none of its engines
 * can train: the engines that can (their objects have `openTrainer`), each
 * as available here or with what it needs. Null when some cell was skipped
 * for another reason, which the general fix covers.
 */
export async function trainingEnginesFix(record: TrainingRunRecord, registry: EngineRegistry): Promise<string | null> {
  const trainers = await registry.idsWith('openTrainer');
  if (!record.cells.every((c) => c.state === 'skipped' && !trainers.includes(c.engine))) return null;
  if (trainers.length === 0) return 'no engine registered here can train (none has Engine.openTrainer)';
  const statuses = await registry.statusAll(trainers);
  const ready = statuses.filter((s) => s.availability.available).map((s) => s.id);
  const not = statuses.filter((s) => !s.availability.available).map((s) => `${s.id} (${unavailableText(s)})`);
  const asked = [...new Set(record.cells.map((c) => c.engine))].join(', ');
  return (
    `${asked} cannot train; ` +
    (ready.length > 0 ? `pass --engines ${ready.join(',')}, the engines that can train here` : 'no engine that can train is available here') +
    (not.length > 0 ? `${ready.length > 0 ? '; also' : ':'} ${not.join('; ')}` : '')
  );
}
