import { DEFAULT_OUT_DIR } from '../core/output-folder.js';
import { requirePositiveInteger, resolveBenchmarkOptions, type ProgressEvent } from './benchmark-options.js';
import { defaultRegistry } from '../../engines/registry.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import { driveRun, type DriverHooks, type RunOutcome } from './run-driver.js';
import { parseDtypes } from '../core/dtypes.js';
import { TEXT_TASKS, type TextTask } from '../models/text-task.js';
import { SavedOutputs } from './saved-outputs.js';
import { parseArchitectures } from '../models/generated/arch-parse.js';
import type { ArchitectureSpec } from '../models/generated/arch-presets.js';
import { planModels } from './model-plan.js';
import { sweepModels } from './classify-sweep.js';
import { checkRange, type RangedOption } from '../core/option-ranges.js';
import { prepareOutputFolder } from '../core/output-folder.js';
import type { CellResult, RunRecord } from '../core/results.js';
import { datasetSourceString, openDataset, EMBEDDED_DATASET_NAME } from '../../datasets/open-dataset.js';
import { checkTextColumn, resolveColumns } from '../../datasets/columns.js';
import { writeRunFiles } from '../../reports/write-run.js';
import type { QueueSweep, QueueRunOptions } from './queue-sweep.js';
import type { RunConfig } from './run-config.js';

export type { RunConfig } from './run-config.js';
import { UserError } from '../core/errors.js';
import { CALIBRATION_METHODS, type CalibrationMethod } from '../models/quantize/calibration-methods.js';
import { checkCalibrationRows } from './calibration-rows.js';

/** Rows a q8-static variant is calibrated on by default. */
export const DEFAULT_CALIBRATION_ROWS = 128;

function parseCalibrationMethod(value: string, name: string): CalibrationMethod {
  const found = CALIBRATION_METHODS.find((m) => m === value);
  if (!found) throw new UserError(`${name} must be one of ${CALIBRATION_METHODS.join(', ')}, got ${JSON.stringify(value)}`, `pass ${name} minmax (onnxruntime's MinMax, the default) or percentile`);
  return found;
}


/** Flag names to use in messages, so CLI users see `--batch-sizes` and API users `batchSizes`. */
export interface OptionNames {
  readonly batchSizes?: string;
  readonly dtypes?: string;
  readonly architectures?: string;
  readonly sequenceLengths?: string;
  readonly limit?: string;
  readonly threads?: string;
  readonly engines?: string;
  readonly reference?: string;
  readonly rounds?: string;
  readonly maxTime?: string;
  readonly calibrationRows?: string;
  readonly calibrationMethod?: string;
  readonly task?: string;
}


/**
 * Fills every default of a run config in one place and validates it
 * (batch sizes, threads, engine names) without loading any engine.
 */
/**
 * What a caller may give: any RunConfig field, with `architectures` also as
 * `--config` texts (presets, key=value, JSON files) and `dtypes` as names.
 */
export type RunConfigInput = Partial<Omit<RunConfig, 'architectures' | 'dtypes' | 'calibrationMethod' | 'task'>> & {
  readonly task?: string | null;
  readonly calibrationMethod?: string;
  readonly architectures?: readonly (string | ArchitectureSpec)[];
  readonly dtypes?: readonly string[] | null;
};

/** `--task` as a TextTask; another name is a UserError listing the tasks. */
function parseTask(task: string | null, flag: string): TextTask | null {
  if (task === null) return null;
  if ((TEXT_TASKS as readonly string[]).includes(task)) return task as TextTask;
  throw new UserError(`${flag} ${JSON.stringify(task)} is not a task inferbench runs`, `use one of ${TEXT_TASKS.join(', ')}, or leave it out to detect the task from the model folder`);
}

export function resolveRunConfig(partial: RunConfigInput, names: OptionNames = {}, registry: EngineRegistry = defaultRegistry): RunConfig {
  const bench = resolveBenchmarkOptions(
    {
      batchSizes: partial.batchSizes,
      threads: partial.threads,
      limit: partial.limit,
      warmupBatches: partial.warmupBatches,
      ...(partial.rounds !== undefined ? { rounds: partial.rounds } : {}),
      ...(partial.stop ? { stop: partial.stop } : {}),
      ...(partial.maxCv !== undefined ? { maxCv: partial.maxCv } : {}),
      ...(partial.parity ? { parity: partial.parity } : {}),
    },
    names,
  );
  const models = [...new Set(partial.models ?? (partial.model ? [partial.model] : []))];
  const architectures = (partial.architectures ?? []).flatMap((a) => (typeof a === 'string' ? parseArchitectures([a], names.architectures ?? 'architectures') : [a]));
  const sequenceLengths = partial.sequenceLengths ? [...new Set(partial.sequenceLengths)] : null;
  sequenceLengths?.forEach((n) => requirePositiveInteger(n, names.sequenceLengths ?? 'sequenceLengths'));
  const reference = bench.parity.reference;
  if (reference !== null) registry.parseNames([reference], names.reference ?? 'parity.reference');
  const config: RunConfig = {
    model: models[0] ?? null,
    models,
    revision: partial.revision ?? null,
    dtypes: partial.dtypes ? parseDtypes(partial.dtypes, names.dtypes ?? 'dtypes') : null,
    task: parseTask(partial.task ?? null, names.task ?? 'task'),
    ...(partial.saveOutputs === true ? { saveOutputs: true } : {}),
    architectures,
    sequenceLengths,
    engines: partial.engines ? registry.parseNames(partial.engines, names.engines ?? 'engines') : null,
    batchSizes: bench.batchSizes,
    threads: bench.threads,
    dataset: partial.dataset ?? null,
    datasetConfig: partial.datasetConfig ?? null,
    split: partial.split ?? null,
    textColumn: partial.textColumn ?? null,
    labelColumn: partial.labelColumn ?? null,
    limit: bench.limit,
    warmupBatches: bench.warmupBatches,
    rounds: bench.rounds,
    out: partial.out ?? DEFAULT_OUT_DIR,
    png: partial.png ?? true,
    stop: { minTimeMs: bench.stop.minTimeMs, minBatches: bench.stop.minBatches, maxTimeMs: bench.stop.maxTimeMs },
    maxCv: bench.maxCv,
    parity: { reference, tolerance: bench.parity.tolerance },
    isolate: partial.isolate ?? true,
    calibrationRows: partial.calibrationRows ?? DEFAULT_CALIBRATION_ROWS,
    calibrationMethod: parseCalibrationMethod(partial.calibrationMethod ?? 'minmax', names.calibrationMethod ?? 'calibrationMethod'),
  };
  checkConfigRanges(config, names);
  return config;
}

/**
 * Every number of a resolved config against OPTION_RANGES, after the
 * checks above (which say more about 0 or a negative value). The CLI and
 * the API check the same ranges at the door; this catches library callers
 * and stored configs being re-run.
 */
function checkConfigRanges(config: RunConfig, names: OptionNames): void {
  const check = (field: RangedOption, value: number | null, name?: string): void => {
    if (value !== null) checkRange(field, value, 'field', name === undefined ? {} : { name });
  };
  for (const b of config.batchSizes) check('batchSizes', b, names.batchSizes);
  for (const n of config.sequenceLengths ?? []) check('sequenceLengths', n, names.sequenceLengths);
  check('limit', config.limit, names.limit);
  check('warmupBatches', config.warmupBatches);
  check('rounds', config.rounds);
  check('stop.minTimeMs', config.stop.minTimeMs);
  check('stop.maxTimeMs', config.stop.maxTimeMs);
  check('stop.minBatches', config.stop.minBatches);
  check('maxCv', config.maxCv);
  check('parity.tolerance', config.parity.tolerance);
  check('calibrationRows', config.calibrationRows ?? DEFAULT_CALIBRATION_ROWS, names.calibrationRows);
}

/** Callbacks of a run in progress, for a CLI, a web page or a history store. */
export interface RunHooks extends DriverHooks<CellResult, RunRecord> {
  readonly onProgress?: (event: ProgressEvent) => void;
  readonly registry?: EngineRegistry;
  /** Run the sweep on queue workers (`run --queue`) instead of this machine. */
  readonly queue?: QueueRunOptions;
}

export type { RunOutcome } from './run-driver.js';

/**
 * Runs one benchmark from a config: checks the dataset and model, then
 * hands the sweep to the run driver, which saves results after every cell
 * and writes the final files. Input mistakes fail before anything is
 * measured; an abort keeps every measured cell.
 */
export async function executeRun(config: RunConfig, hooks: RunHooks = {}): Promise<RunOutcome<RunRecord>> {
  const registry = hooks.registry ?? defaultRegistry;
  // First of all, so a folder that cannot be written fails at once rather than after the model load (or never: see output-folder.ts).
  await prepareOutputFolder(config.out);
  // Next the queue: an unreachable Redis, or no worker, fails before any model is generated.
  // bullmq and ioredis load only for a queue run.
  const queue = hooks.queue ? await (await import('./queue-sweep.js')).QueueSweep.open(hooks.queue) : null;
  try {
    return await executeSweep(config, hooks, registry, queue);
  } finally {
    await queue?.close();
  }
}

async function executeSweep(config: RunConfig, hooks: RunHooks, registry: EngineRegistry, queue: QueueSweep | null): Promise<RunOutcome<RunRecord>> {
  // The dataset is opened and its columns checked before the slower model load, so input mistakes fail fast.
  const datasetOptions = { config: config.datasetConfig ?? undefined, split: config.split ?? undefined };
  const dataset = await openDataset(config.dataset ?? undefined, datasetOptions);
  const columns = resolveColumns(await dataset.columns(), { text: config.textColumn ?? undefined, label: config.labelColumn ?? undefined });
  // Fixed-length runs use the text only to seed synthetic ids; tokenized runs need text in every row.
  if (config.sequenceLengths === null) await checkTextColumn(dataset, columns.text);
  const calibration = config.dtypes?.includes('q8-static')
    ? await checkCalibrationRows(dataset, columns, config.calibrationRows ?? DEFAULT_CALIBRATION_ROWS, config.calibrationMethod ?? 'minmax', '--calibration-rows (calibrationRows)')
    : null;
  const plan = await planModels({
    models: config.models ?? (config.model ? [config.model] : []),
    architectures: config.architectures ?? [],
    dtypes: config.dtypes ?? null,
    revision: config.revision ?? null,
    registry,
    dataset,
    columns,
    calibration,
    task: config.task ?? null,
  });
  await queue?.prepare(plan, config, dataset);
  // An isolated child re-opens the dataset from its source string (config and split included), so the Benchmark gets that string then.
  const datasetForBenchmark = config.isolate ? (config.dataset === null ? undefined : datasetSourceString(config.dataset, datasetOptions)) : dataset;
  let runId = '';
  // --save-outputs: the reference's and failed cells' outputs, hashed against the rows the cells streamed (after any calibration rows).
  const saved = config.saveOutputs === true ? new SavedOutputs(calibration ? dataset.skip(calibration.rows) : dataset, columns) : null;
  return driveRun<CellResult, RunRecord>(
    {
      out: config.out,
      png: config.png,
      registry,
      engines: queue ? queue.engines(config.engines) : config.engines,
      models: plan.map((p) => p.info),
      recordedConfig: (engines, unavailableEngines) => ({
        ...config,
        command: 'run',
        modelResolved: plan[0]?.model?.dir ?? null,
        modelsResolved: plan.map((p) => ({ name: p.info.name, source: p.info.source, state: p.model ? 'planned' : 'skipped' })),
        enginesResolved: engines,
        unavailableEngines: queue ? queue.unavailable(engines) : unavailableEngines,
        ...(queue ? { queue: queue.recorded() } : {}),
        datasetResolved: config.dataset === null ? `embedded default (${EMBEDDED_DATASET_NAME})` : dataset.name,
        // The rows q8-static was calibrated on; every cell measured from the row after them.
        calibration: calibration ? { rows: calibration.rows, method: calibration.method, firstMeasuredRow: calibration.rows } : null,
      }),
      sweep: (engines, record) =>
        queue ? queue.sweep(plan, engines, { id: runId, config, dataset, signal: hooks.signal }, record, hooks.onProgress) : sweepModels(plan, {
          engines,
          sequenceLengths: config.sequenceLengths ?? null,
          benchmark: {
            dataset: datasetForBenchmark,
            batchSizes: config.batchSizes,
            threads: config.threads,
            limit: config.limit,
            skipRows: calibration?.rows ?? 0,
            warmupBatches: config.warmupBatches,
            // Records written before rounds existed have no `rounds`: a re-run of one measures one round, as it did.
            rounds: config.rounds ?? 1,
            stop: config.stop,
            maxCv: config.maxCv,
            parity: config.parity,
            isolate: config.isolate,
            textColumn: config.textColumn ?? undefined,
            labelColumn: config.labelColumn ?? undefined,
            registry,
            ...(hooks.signal ? { signal: hooks.signal } : {}),
            ...(saved ? { onOutputs: (key, reason, outputs) => saved.add(key, reason, outputs) } : {}),
          },
          ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
          record,
        }),
      write: async (record, dir, options) => {
        const paths = await writeRunFiles(record, dir, options);
        const outputs = (await saved?.write(dir)) ?? [];
        return { paths: [...paths, ...outputs], warnings: [] };
      },
    },
    {
      ...hooks,
      onStart: (record, dir) => {
        // Queue jobs carry the run id, so results of two coordinators on one queue never mix.
        runId = record.id;
        return hooks.onStart?.(record, dir);
      },
    },
  );
}
