import { badPairsError, checkPairs, skippedPairsNote } from '../../../datasets/sts-pairs.js';
import type { ProgressEvent } from './benchmark-options.js';
import type { EngineRegistry } from '../../core/engine-registry.js';
import { driveRun, type RunOutcome } from '../run-driver.js';
import { nothingSavedReason, SavedOutputs } from './saved-outputs.js';
import { planModels } from '../model-plan.js';
import { sweepModels } from './classify-sweep.js';
import { prepareOutputFolder } from '../../core/output-folder.js';
import type { CellResult, RunRecord } from '../../core/results.js';
import { datasetSourceString, openDataset, EMBEDDED_DATASET_NAME } from '../../../datasets/open-dataset.js';
import { checkTextColumn, resolveColumns } from '../../../datasets/columns.js';
import { writeRunFiles } from '../../../reports/write-run.js';
import type { QueueRunOptions } from './classify-queue.js';
import { ClassifyQueueSweep } from './classify-queue-sweep.js';
import { launchersOf, type ScenarioRunHooks } from '../scenario-registry.js';
import { runEngines, type RunConfig } from './run-config.js';

export type { RunConfig } from './run-config.js';
// The config's resolution lives apart so the CLI checks flags without loading the run stack; callers still find it here.
export { DEFAULT_CALIBRATION_ROWS, resolveRunConfig, type OptionNames, type RunConfigInput } from './resolve-run-config.js';
import { DEFAULT_CALIBRATION_ROWS } from './resolve-run-config.js';
import { checkCalibrationRows } from '../calibration-rows.js';
import { standaloneRegistry } from '../../models/standalone-registry.js';

/** Callbacks of a run in progress, for a CLI, a web page or a history store. */
export interface RunHooks extends ScenarioRunHooks<RunRecord, ProgressEvent> {
  /** Run the sweep on queue workers (`run --queue`) instead of this machine: the options and the caller's opener (it speaks to Redis). */
  readonly queue?: QueueRunOptions;
}

export type { RunOutcome } from '../run-driver.js';

/**
 * Runs one benchmark from a config: checks the dataset and model, then
 * hands the sweep to the run driver, which saves results after every cell
 * and writes the final files. Input mistakes fail before anything is
 * measured; an abort keeps every measured cell.
 */
export async function executeRun(config: RunConfig, hooks: RunHooks = {}): Promise<RunOutcome<RunRecord>> {
  const registry = hooks.registry ?? standaloneRegistry();
  // First of all, so a folder that cannot be written fails at once rather than after the model open (or never: see output-folder.ts).
  await prepareOutputFolder(config.out);
  // Next the queue: an unreachable Redis, or no worker, fails before any model is generated.
  const queue = hooks.queue ? await ClassifyQueueSweep.open(launchersOf(hooks), hooks.queue) : null;
  try {
    return await executeSweep(config, hooks, registry, queue);
  } finally {
    await queue?.close();
  }
}

async function executeSweep(config: RunConfig, hooks: RunHooks, registry: EngineRegistry, queue: ClassifyQueueSweep | null): Promise<RunOutcome<RunRecord>> {
  // The dataset is opened and its columns checked before the slower model open, so input mistakes fail fast.
  const datasetOptions = { config: config.datasetConfig ?? undefined, split: config.split ?? undefined };
  const dataset = await openDataset(config.dataset ?? undefined, datasetOptions);
  const columns = resolveColumns(await dataset.columns(), { text: config.textColumn ?? undefined, label: config.labelColumn ?? undefined });
  // Fixed-length runs use the text only to seed synthetic ids; tokenized runs need text in every row.
  if (config.sequenceLengths === null) await checkTextColumn(dataset, columns.text);
  const calibration = config.dtypes?.includes('q8-static')
    ? await checkCalibrationRows(dataset, columns, config.calibrationRows ?? DEFAULT_CALIBRATION_ROWS, config.calibrationMethod ?? 'minmax', '--calibration-rows (calibrationRows)')
    : null;
  // STS pairs are checked over the very rows the cells stream, before any model opens (datasets/sts-pairs.ts).
  const streamed = calibration ? dataset.skip(calibration.rows) : dataset;
  const pairs = await checkPairs(config.limit !== null ? streamed.take(config.limit) : streamed, columns);
  if (pairs !== null && pairs.bad > 0 && config.skipBadRows !== true) throw badPairsError(pairs);
  const pairsNote = pairs !== null && pairs.bad > 0 ? skippedPairsNote(pairs) : null;
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
      engines: queue ? queue.engines(runEngines(config)) : runEngines(config),
      models: plan.map((p) => (pairsNote === null ? p.info : { ...p.info, notes: [...p.info.notes, pairsNote] })),
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
            ...(config.profile === true ? { profile: true } : {}),
            textColumn: config.textColumn ?? undefined,
            labelColumn: config.labelColumn ?? undefined,
            registry,
            ...(hooks.signal ? { signal: hooks.signal } : {}),
            ...(saved ? { onOutputs: (key, reason, outputs) => saved.add(key, reason, outputs) } : {}),
          },
          ...(hooks.onProgress ? { onProgress: hooks.onProgress } : {}),
          launchers: launchersOf(hooks),
          record,
        }),
      write: async (record, dir, options) => {
        const paths = await writeRunFiles(record, dir, options);
        const outputs = (await saved?.write(dir)) ?? [];
        const unsaved = nothingSavedReason(saved, config.parity.reference);
        return { paths: [...paths, ...outputs], warnings: unsaved === null ? [] : [unsaved] };
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
