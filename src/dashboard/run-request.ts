import { UserError } from '../core/errors.js';
import { resolveRunConfig, type OptionNames, type RunConfig } from '../runs/classify-run.js';
import { generateConfig, type GenerateConfig } from '../runs/generate-run.js';
import { isGenerateConfig, isLoadConfig, isTrainConfig, type StoredConfig, type StoredGenerateConfig } from '../runs/history/history-entry.js';
import { checkLoadConfig, loadConfig } from '../runs/load-run.js';
import { checkTrainConfig, trainConfig } from '../runs/train-run.js';
import { resolveGenerationSweep } from '../scenarios/generate/generation-sweep.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import { defaultRegistry } from '../../engines/registry.js';
import { FieldError } from './field-error.js';
import { checkRunCells } from './request-caps.js';
import { recheckRunPaths } from './run-paths.js';
import { lookupName, nameTable } from '../core/name-lookup.js';
import { checkRange, OPTION_RANGES } from '../core/option-ranges.js';
import type { PathGuard } from './path-guard.js';

/** A validated request to add a benchmark: a `run` or a `generate` config. */
export interface RunRequest {
  readonly config: StoredConfig;
  /** History id to compare the new entry against, if one was picked. */
  readonly compareWith: number | null;
}

export type Kind =
  | 'path'
  | 'models'
  | 'architectures'
  | 'name'
  | 'names'
  | 'ints'
  | 'numbers'
  | 'threads'
  | 'intOrNull'
  | 'int'
  | 'number'
  | 'boolean'
  | 'stop'
  | 'parity'
  | 'id';

/**
 * The JSON fields of a run request: the CLI's `run` options under the
 * names RunConfig uses (`--batch-sizes` is `batchSizes`, `--dtype` is
 * `dtypes`, `--config` is `architectures`, `--min-time` is
 * `stop.minTimeMs` in milliseconds…). The output folder is not one of them:
 * the dashboard writes where it was started. A Map, so a name every object
 * has (`constructor`, `__proto__`) is an unknown field like any other.
 */
const RUN_FIELDS: ReadonlyMap<string, Kind> = new Map<string, Kind>([
  ['model', 'path'],
  ['models', 'models'],
  ['revision', 'name'],
  ['dtypes', 'names'],
  ['architectures', 'architectures'],
  ['sequenceLengths', 'ints'],
  ['engines', 'names'],
  ['batchSizes', 'ints'],
  ['threads', 'threads'],
  ['dataset', 'path'],
  ['datasetConfig', 'name'],
  ['split', 'name'],
  ['textColumn', 'name'],
  ['labelColumn', 'name'],
  ['limit', 'intOrNull'],
  ['warmupBatches', 'int'],
  ['rounds', 'int'],
  ['stop', 'stop'],
  ['maxCv', 'number'],
  ['parity', 'parity'],
  ['isolate', 'boolean'],
  ['png', 'boolean'],
  ['calibrationRows', 'int'],
  ['calibrationMethod', 'name'],
  ['compareWith', 'id'],
]);

/** The fields of a generate request (`command: "generate"`): `inferbench generate`'s options. */
const GENERATE_FIELDS: ReadonlyMap<string, Kind> = new Map<string, Kind>([
  ['model', 'path'],
  ['engines', 'names'],
  ['batchSizes', 'ints'],
  ['promptLengths', 'ints'],
  ['newTokens', 'ints'],
  ['runs', 'int'],
  ['warmupRuns', 'int'],
  ['threads', 'intOrNull'],
  ['dataset', 'path'],
  ['textColumn', 'name'],
  ['promptLimit', 'int'],
  ['fixedLength', 'boolean'],
  ['isolate', 'boolean'],
  ['png', 'boolean'],
  ['compareWith', 'id'],
]);

const STOP_FIELDS = ['minTimeMs', 'minBatches', 'maxTimeMs'] as const;
const PARITY_FIELDS = ['reference', 'tolerance'] as const;
const MAX_TEXT = 4096;

/** Names resolveRunConfig puts in its messages, so they match the JSON fields. */
const NAMES: OptionNames = {
  batchSizes: 'batchSizes',
  limit: 'limit',
  threads: 'threads',
  engines: 'engines',
  reference: 'parity.reference',
  dtypes: 'dtypes',
  architectures: 'architectures',
  sequenceLengths: 'sequenceLengths',
  calibrationRows: 'calibrationRows',
  calibrationMethod: 'calibrationMethod',
};

function fail(field: string, message: string, fix: string): never {
  throw new FieldError(field, message, fix);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkObject(field: string, value: unknown, keys: readonly string[], types: 'number' | 'mixed'): void {
  if (!isObject(value)) fail(field, `${field} must be an object`, `send ${field} as { ${keys.join(', ')} }`);
  for (const [k, v] of Object.entries(value)) {
    if (!keys.includes(k)) fail(`${field}.${k}`, `unknown field ${field}.${k}`, `${field} takes ${keys.join(', ')}`);
    const ok = types === 'number' || k === 'tolerance' ? typeof v === 'number' : v === null || (typeof v === 'string' && v.length <= MAX_TEXT);
    if (!ok) fail(`${field}.${k}`, `${field}.${k} has the wrong type (${JSON.stringify(v)})`, types === 'number' || k === 'tolerance' ? 'send a number' : 'send an engine id or null');
  }
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '' && v.length <= MAX_TEXT;

/** Candidate values a fix shows as `e.g. field: …`, by field, then by kind; the first one the field's own check accepts is shown. */
const FIELD_EXAMPLES: Readonly<Record<string, unknown>> = nameTable({
  engines: ['onnx-cpu', 'tfjs-node'],
  dtypes: ['fp32', 'q8'],
  models: ['Xenova/distilbert-base-uncased-finetuned-sst-2-english'],
  architectures: ['bert-base'],
  threads: [1, 2],
  newTokens: [32],
  promptLengths: [32, 128],
});
const KIND_EXAMPLES: Readonly<Partial<Record<Kind, unknown>>> = { ints: [1, 8], threads: [1, 2], intOrNull: 256, int: 2, number: 2 };

/** What is wrong with the JSON type of one field, or null; values are checked by the CLI's own resolvers afterwards. */
function kindProblem(field: string, kind: Kind, value: unknown): { message: string; fix?: string } | null {
  const list = (each: (v: unknown) => boolean, what: string) =>
    !Array.isArray(value) || value.length === 0 || !value.every(each) ? { message: `${field} must be a non-empty list of ${what}, got ${JSON.stringify(value)}` } : null;
  switch (kind) {
    case 'path':
    case 'name':
      return value !== null && !isText(value) ? { message: `${field} must be a non-empty string or null`, fix: 'leave it empty for the default' } : null;
    case 'models':
      return list(isText, 'model folders or Hub ids');
    case 'architectures':
      return list(isText, 'architecture specs (a preset, key=value pairs or a JSON file)');
    case 'names':
      return value !== null ? list((v) => typeof v === 'string' && v.length <= 100, 'names') : null;
    case 'ints':
      return list((v) => typeof v === 'number', 'whole numbers');
    case 'numbers':
      return list((v) => typeof v === 'number', 'numbers');
    case 'threads':
      return list((v) => typeof v === 'number' || v === null, 'whole numbers (null: engine default)');
    case 'intOrNull':
      return value !== null && typeof value !== 'number' ? { message: `${field} must be a number or null` } : null;
    case 'int':
    case 'number':
      return typeof value !== 'number' ? { message: `${field} must be a number, got ${JSON.stringify(value)}` } : null;
    case 'boolean':
      return typeof value !== 'boolean' ? { message: `${field} must be true or false`, fix: 'send a JSON boolean' } : null;
    case 'id':
      return value !== null && !(typeof value === 'number' && Number.isInteger(value) && value > 0) ? { message: `${field} must be a benchmark id or null`, fix: 'pick a benchmark from the list' } : null;
    case 'stop':
    case 'parity':
      return null;
  }
}

/**
 * Checks the JSON type of one field. A fix that shows an example shows one
 * this same check accepts for this field (`engines: [1, 8]` was suggested
 * for engines), so following it never fails here again.
 */
function checkKind(field: string, kind: Kind, value: unknown): void {
  if (kind === 'stop') return checkObject(field, value, STOP_FIELDS, 'number');
  if (kind === 'parity') return checkObject(field, value, PARITY_FIELDS, 'mixed');
  const found = kindProblem(field, kind, value);
  if (!found) return;
  // A field that takes one value where another command takes a list (generate's threads) shows the list's first value, which is in range, before the kind's generic one.
  const own = lookupName(FIELD_EXAMPLES, field);
  const shown = [own, Array.isArray(own) ? own[0] : undefined, KIND_EXAMPLES[kind]].find((v) => v !== undefined && kindProblem(field, kind, v) === null);
  fail(field, found.message, found.fix ?? (shown !== undefined ? `e.g. ${field}: ${JSON.stringify(shown)}` : `send ${field} as the type named above`));
}

/** Which field a resolveRunConfig message is about, when probing one group of options. */
function fieldOf(group: string, err: UserError): string {
  if (group === 'stop') {
    const named = /stop\.(\w+)/.exec(err.message)?.[1];
    if (named) return `stop.${named}`;
    return /maximum time/.test(err.message) ? 'stop.maxTimeMs' : 'stop';
  }
  if (group === 'parity') return /tolerance/.test(err.message) ? 'parity.tolerance' : 'parity.reference';
  return group;
}

/**
 * Checks every number of the body against OPTION_RANGES (the table the
 * CLI flags use), by field name: `limit`, each item of `batchSizes`, each
 * key of `stop` as `stop.minTimeMs`… A field with no range entry is left
 * to the other checks, so a new field is bounded by adding it there.
 */
export function checkFieldRanges(body: Readonly<Record<string, unknown>>): void {
  const check = (field: string, value: unknown): void => {
    if (!Object.hasOwn(OPTION_RANGES, field) || value === null) return;
    try {
      // A null item is the engine default (`threads: [null, 2]`), as the CLI's resolver reads it; the kind check allowed it.
      for (const item of Array.isArray(value) ? value : [value]) if (item !== null) checkRange(field, item, 'field');
    } catch (err) {
      if (err instanceof UserError) throw new FieldError(field, err.message, err.fix);
      throw err;
    }
  };
  for (const [field, value] of Object.entries(body)) {
    if (isObject(value)) for (const [key, inner] of Object.entries(value)) check(`${field}.${key}`, inner);
    else check(field, value);
  }
}

/** Runs a CLI resolver, turning its UserError into a FieldError against `field`. */
export function asField<T>(field: string, resolve: () => T): T {
  try {
    return resolve();
  } catch (err) {
    if (err instanceof UserError) throw new FieldError(fieldOf(field, err), err.message, err.fix);
    throw err;
  }
}

export type Ctx = { readonly guard: PathGuard; readonly out: string; readonly registry?: EngineRegistry };

/**
 * Validates a run request (POST /api/runs) with the same code as
 * `inferbench run`: each option group is passed alone through
 * resolveRunConfig first, so a mistake is reported against its own field,
 * then the whole config is resolved. Paths go through the PathGuard.
 * Throws FieldError.
 */
export function parseRunRequest(body: unknown, ctx: Ctx): RunRequest {
  const { fields, compareWith } = checkFields(body, RUN_FIELDS, 'run');
  return { config: parseRun(fields, ctx), compareWith };
}

/** Validates a generate request (POST /api/generate) with the same code as `inferbench generate`. */
export function parseGenerateRequest(body: unknown, ctx: Ctx): RunRequest {
  const { fields, compareWith } = checkFields(body, GENERATE_FIELDS, 'generate');
  return { config: parseGenerate(fields, ctx), compareWith };
}

/** Checks a request body's fields against the command's field list and their JSON types; splits off `compareWith`. */
export function checkFields(body: unknown, known: ReadonlyMap<string, Kind>, command: string): { fields: Record<string, unknown>; compareWith: number | null } {
  if (!isObject(body)) fail('body', 'the request body must be a JSON object', `send the ${command} settings as a JSON object`);
  for (const [field, value] of Object.entries(body)) {
    if (field === 'out') fail('out', 'out cannot be set from the dashboard', 'runs are written to the --out folder `inferbench serve` was started with');
    const kind = known.get(field);
    if (kind === undefined) fail(field, `unknown field ${field}`, `valid fields: ${[...known.keys()].join(', ')}`);
    checkKind(field, kind, value);
  }
  const { compareWith, ...fields } = body;
  return { fields, compareWith: (compareWith as number | null | undefined) ?? null };
}

function parseRun(fields: Record<string, unknown>, ctx: Ctx): RunConfig {
  const partial = { ...fields } as Omit<Partial<RunConfig>, 'architectures' | 'calibrationMethod'> & { architectures?: string[]; calibrationMethod?: string };
  for (const group of ['batchSizes', 'threads', 'limit', 'warmupBatches', 'rounds', 'stop', 'maxCv', 'parity', 'engines', 'dtypes', 'sequenceLengths', 'calibrationRows', 'calibrationMethod'] as const) {
    if (partial[group] === undefined) continue;
    asField(group, () => resolveRunConfig({ [group]: partial[group] }, NAMES, ctx.registry));
  }
  checkFieldRanges(fields);
  const model = typeof partial.model === 'string' ? ctx.guard.checkModel('model', partial.model) : null;
  const models = partial.models?.map((m, i) => ctx.guard.checkModel(`models[${i}]`, m));
  const dataset = typeof partial.dataset === 'string' ? ctx.guard.check('dataset', partial.dataset) : null;
  // A spec naming a JSON file is read from disk, so it is a path like any other.
  const architectures = partial.architectures?.map((a, i) => (/\.json$/i.test(a.trim()) ? ctx.guard.check(`architectures[${i}]`, a) : a));
  if (architectures) asField('architectures', () => resolveRunConfig({ architectures }, NAMES, ctx.registry));
  const config = asField('body', () =>
    resolveRunConfig(
      { ...partial, model, ...(models ? { models } : {}), ...(architectures ? { architectures } : {}), dataset, out: ctx.out },
      NAMES,
      ctx.registry,
    ),
  );
  const count = (list: readonly unknown[] | null | undefined, otherwise = 1) => Math.max(list?.length ?? otherwise, 1);
  const sources = Math.max(config.models.length + config.architectures.length, 1);
  checkRunCells(sources * count(config.engines, (ctx.registry ?? defaultRegistry).ids().length) * count(config.batchSizes) * count(config.threads) * count(config.sequenceLengths) * count(config.dtypes));
  return config;
}

function parseGenerate(fields: Record<string, unknown>, ctx: Ctx): StoredGenerateConfig {
  const partial = { ...fields } as Partial<GenerateConfig>;
  const model = typeof partial.model === 'string' ? ctx.guard.checkModel('model', partial.model) : null;
  const dataset = typeof partial.dataset === 'string' ? ctx.guard.check('dataset', partial.dataset) : null;
  const config = generateConfig({ ...partial, model, dataset, out: ctx.out });
  const engines = config.engines;
  if (engines) asField('engines', () => (ctx.registry ?? defaultRegistry).parseNames(engines, 'engines'));
  // Ranges first, then each list alone through the CLI's resolver, so a mistake is reported against its own field (not "body").
  checkFieldRanges(fields);
  const names = { batchSizes: 'batchSizes', promptLengths: 'promptLengths', newTokens: 'newTokens', runs: 'runs', rounds: 'rounds' };
  for (const group of ['batchSizes', 'promptLengths', 'newTokens', 'runs', 'rounds', 'warmupRuns'] as const) {
    if (partial[group] !== undefined) asField(group, () => resolveGenerationSweep({ [group]: partial[group] }, Number.POSITIVE_INFINITY, names));
  }
  // The context length is the model's and is checked when the run starts; every other rule is the CLI's.
  asField('body', () => resolveGenerationSweep(config, Number.POSITIVE_INFINITY, names));
  return { ...config, command: 'generate' };
}

/**
 * A stored config made runnable by this dashboard: written to its own
 * output folder, with its paths passed through the same guard as a new
 * request (a CLI run in the history may point anywhere).
 */
export function checkStoredConfig(config: StoredConfig, ctx: Ctx): StoredConfig {
  const checked = recheckRunPaths(config, ctx.guard);
  if (isGenerateConfig(checked)) return { ...generateConfig({ ...checked, out: ctx.out }), command: 'generate' };
  if (isTrainConfig(checked)) {
    const train = trainConfig({ ...checked, out: ctx.out });
    checkTrainConfig(train);
    return train;
  }
  if (isLoadConfig(checked)) {
    const load = loadConfig({ ...checked, out: ctx.out });
    checkLoadConfig(load);
    return load;
  }
  return resolveRunConfig({ ...checked, out: ctx.out }, NAMES, ctx.registry);
}
