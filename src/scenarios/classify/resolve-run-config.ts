/**
 * Resolving and checking a run config (`run`'s flags, the dashboard's run
 * request, a stored config being re-run), apart from the code that runs it
 * (classify-run.ts). It imports no engine, model loader, dataset reader or
 * report, so `inferbench run` refuses a bad flag before it loads its run
 * stack, at the cost of `--help`.
 */
import { DEFAULT_OUT_DIR } from '../../core/output-folder.js';
import { requirePositiveInteger, resolveBenchmarkOptions } from './benchmark-options.js';
import type { EngineRegistry } from '../../core/engine-registry.js';
import { parseDtypes } from '../../core/dtypes.js';
import { TEXT_TASKS, type TextTask } from '../../models/task-names.js';
import { parseArchitectures } from '../../models/generated/arch-parse.js';
import type { ArchitectureSpec } from '../../models/generated/arch-presets.js';
import { checkRange, type RangedOption } from '../../core/option-ranges.js';
import type { RunConfig } from './run-config.js';
import { UserError } from '../../core/errors.js';
import { expandBrowsers, parseBrowsers } from './browser-expansion.js';
import { expandEngineVariants } from '../../core/engine-options.js';
import { CALIBRATION_METHODS, type CalibrationMethod } from '../../models/quantize/calibration-methods.js';

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
  readonly browsers?: string;
  readonly engineOptions?: string;
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
  /** `--browsers`: each browser engine in `engines` runs in each of these (browser-expansion.ts); the config keeps the expanded engine list. */
  readonly browsers?: readonly string[] | null;
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

/** `engines`, each browser engine in each of `browsers` when given. */
function enginesOf(partial: RunConfigInput, names: OptionNames, registry: EngineRegistry): string[] | null {
  const engines = partial.engines ? registry.parseNames(partial.engines, names.engines ?? 'engines') : null;
  if (partial.browsers === undefined || partial.browsers === null) return engines;
  const flag = names.browsers ?? 'browsers';
  const browsers = parseBrowsers(partial.browsers, flag);
  if (engines === null) throw new UserError(`${flag} needs ${names.engines ?? 'engines'} naming the browser engines to run in them`, `e.g. ${names.engines ?? 'engines'} browser-onnx-wasm,browser-tfjs-wasm ${flag} ${browsers.join(',')}`);
  return expandBrowsers(engines, browsers, registry, flag);
}

/**
 * `--engine-options` checked against each engine's table and against
 * `--engines` (options for an engine not run would do nothing); absent when none.
 */
export function checkedEngineOptions(partial: { readonly engines?: readonly string[] | null; readonly engineOptions?: readonly string[] }, names: OptionNames, registry: EngineRegistry): { engineOptions?: readonly string[] } {
  const specs = partial.engineOptions ?? [];
  if (specs.length === 0) return {};
  const flag = names.engineOptions ?? 'engineOptions';
  const enginesFlag = names.engines ?? 'engines';
  if (!partial.engines) throw new UserError(`${flag} needs ${enginesFlag}: options apply to the engines a run names`, `add ${enginesFlag} with the engine of each ${flag}`);
  expandEngineVariants(registry.parseNames(partial.engines, enginesFlag), specs, flag, enginesFlag);
  return { engineOptions: [...specs] };
}

export function resolveRunConfig(partial: RunConfigInput, names: OptionNames, registry: EngineRegistry): RunConfig {
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
    ...(partial.skipBadRows === true ? { skipBadRows: true } : {}),
    ...(partial.profile === true ? { profile: true } : {}),
    architectures,
    sequenceLengths,
    engines: enginesOf(partial, names, registry),
    ...checkedEngineOptions(partial, names, registry),
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

