import { UserError } from '../core/errors.js';
import { resolveRunConfig, type OptionNames, type RunConfig } from '../runs/classify-run.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import { FieldError } from './field-error.js';
import { lookupName, nameTable } from '../core/name-lookup.js';
import { checkRange, OPTION_RANGES } from '../core/option-ranges.js';
import type { PathGuard } from './path-guard.js';

/** A validated request to add a benchmark. */
export interface RunRequest {
  readonly config: RunConfig;
  /** History id to compare the new entry against, if one was picked. */
  readonly compareWith: number | null;
}

type Kind = 'path' | 'name' | 'names' | 'ints' | 'threads' | 'intOrNull' | 'int' | 'number' | 'boolean' | 'stop' | 'parity' | 'id';

/**
 * The JSON fields of a run request: the CLI's `run` options under the
 * names RunConfig uses (`--batch-sizes` is `batchSizes`, `--threads` is
 * `threads`, `--min-time` is `stop.minTimeMs` in milliseconds…). The output
 * folder is not one of them: the dashboard writes where it was started.
 */
const FIELDS: Readonly<Record<string, Kind>> = nameTable({
  model: 'path',
  engines: 'names',
  batchSizes: 'ints',
  threads: 'threads',
  dataset: 'path',
  textColumn: 'name',
  labelColumn: 'name',
  limit: 'intOrNull',
  warmupBatches: 'int',
  stop: 'stop',
  maxCv: 'number',
  parity: 'parity',
  isolate: 'boolean',
  png: 'boolean',
  compareWith: 'id',
});

const STOP_FIELDS = ['minTimeMs', 'minBatches', 'maxTimeMs'] as const;
const PARITY_FIELDS = ['reference', 'tolerance'] as const;
const MAX_TEXT = 4096;

/** Names resolveRunConfig puts in its messages, so they match the JSON fields. */
const NAMES: OptionNames = { batchSizes: 'batchSizes', limit: 'limit', threads: 'threads', engines: 'engines', reference: 'parity.reference' };

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

/** Checks the JSON type of one field; values are checked by resolveRunConfig afterwards. */
function checkKind(field: string, kind: Kind, value: unknown): void {
  const list = (each: (v: unknown) => boolean, what: string) => {
    if (!Array.isArray(value) || value.length === 0 || !value.every(each)) fail(field, `${field} must be a non-empty list of ${what}, got ${JSON.stringify(value)}`, `e.g. ${field}: [1, 8]`);
  };
  switch (kind) {
    case 'path':
    case 'name':
      if (value !== null && !(typeof value === 'string' && value.trim() !== '' && value.length <= MAX_TEXT)) fail(field, `${field} must be a non-empty string or null`, 'leave it empty for the default');
      return;
    case 'names':
      if (value !== null) list((v) => typeof v === 'string' && v.length <= 100, 'engine ids');
      return;
    case 'ints':
      list((v) => typeof v === 'number', 'whole numbers');
      return;
    case 'threads':
      list((v) => typeof v === 'number' || v === null, 'whole numbers (null: engine default)');
      return;
    case 'intOrNull':
      if (value !== null && typeof value !== 'number') fail(field, `${field} must be a number or null`, `e.g. ${field}: 256`);
      return;
    case 'int':
    case 'number':
      if (typeof value !== 'number') fail(field, `${field} must be a number, got ${JSON.stringify(value)}`, `e.g. ${field}: 2`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') fail(field, `${field} must be true or false`, 'send a JSON boolean');
      return;
    case 'id':
      if (value !== null && !(typeof value === 'number' && Number.isInteger(value) && value > 0)) fail(field, `${field} must be a benchmark id or null`, 'pick a benchmark from the list');
      return;
    case 'stop':
      checkObject(field, value, STOP_FIELDS, 'number');
      return;
    case 'parity':
      checkObject(field, value, PARITY_FIELDS, 'mixed');
      return;
  }
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
      for (const item of Array.isArray(value) ? value : [value]) checkRange(field, item, 'field');
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

/**
 * Validates a run request with the same rules as `inferbench run`: each
 * option group is passed alone through resolveRunConfig first, so a
 * mistake is reported against its own field, then the whole config is
 * resolved. Paths go through the PathGuard. Throws FieldError.
 */
export function parseRunRequest(body: unknown, ctx: { readonly guard: PathGuard; readonly out: string; readonly registry?: EngineRegistry }): RunRequest {
  if (!isObject(body)) fail('body', 'the request body must be a JSON object', 'send the run settings as a JSON object');
  for (const [field, value] of Object.entries(body)) {
    const kind = lookupName(FIELDS, field);
    if (field === 'out') fail('out', 'out cannot be set from the dashboard', 'runs are written to the --out folder `inferbench serve` was started with');
    if (kind === undefined) fail(field, `unknown field ${field}`, `valid fields: ${Object.keys(FIELDS).join(', ')}`);
    checkKind(field, kind, value);
  }
  const partial = { ...body } as Partial<RunConfig> & { compareWith?: number | null };
  const compareWith = partial.compareWith ?? null;
  delete partial.compareWith;
  for (const group of ['batchSizes', 'threads', 'limit', 'warmupBatches', 'stop', 'maxCv', 'parity', 'engines'] as const) {
    if (partial[group] === undefined) continue;
    try {
      resolveRunConfig({ [group]: partial[group] }, NAMES, ctx.registry);
    } catch (err) {
      if (err instanceof UserError) throw new FieldError(fieldOf(group, err), err.message, err.fix);
      throw err;
    }
  }
  checkFieldRanges(body);
  const model = typeof partial.model === 'string' ? ctx.guard.check('model', partial.model) : null;
  const dataset = typeof partial.dataset === 'string' ? ctx.guard.check('dataset', partial.dataset) : null;
  try {
    const config = resolveRunConfig({ ...partial, model, dataset, out: ctx.out }, NAMES, ctx.registry);
    return { config, compareWith };
  } catch (err) {
    if (err instanceof UserError) throw new FieldError('body', err.message, err.fix);
    throw err;
  }
}

/**
 * A stored config made runnable by this dashboard: written to its own
 * output folder, with its paths passed through the same guard as a new
 * request (a CLI run in the history may point anywhere).
 */
export function checkStoredConfig(config: RunConfig, ctx: { readonly guard: PathGuard; readonly out: string; readonly registry?: EngineRegistry }): RunConfig {
  const model = config.model === null ? null : ctx.guard.check('model', config.model);
  const dataset = config.dataset === null ? null : ctx.guard.check('dataset', config.dataset);
  return resolveRunConfig({ ...config, model, dataset, out: ctx.out }, NAMES, ctx.registry);
}
