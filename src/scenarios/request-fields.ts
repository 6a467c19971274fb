/**
 * A scenario's JSON request, as the dashboard's API takes one: its fields,
 * their JSON kinds and ranges, checked with one set of rules for every
 * scenario. A field is derived from the scenario's options table (the CLI
 * flags, src/scenarios/<name>/<name>-options.ts) where the JSON name and
 * kind follow from the flag; a scenario lists a field of its own only
 * where they do not. It lives in runs/, below the dashboard, because each
 * scenario's request part (src/scenarios/<name>/<name>-request.ts) builds
 * its config with its run module's resolver and uses these checks, and
 * nothing in runs/ may import the dashboard.
 */
import { expandEngineVariants } from '../core/engine-options.js';
import type { EngineRegistry } from '../core/engine-registry.js';
import { UserError } from '../core/errors.js';
import { FieldError } from '../core/field-error.js';
import { isCliFlagSlot, type FlagSpec, type ScenarioOptions } from '../core/flag-spec.js';
import { lookupName, nameTable } from '../core/name-lookup.js';
import { checkRange, OPTION_RANGES, optionRange } from '../core/option-ranges.js';

/** The JSON kind of a request field, which decides how its type is checked. */
export type FieldKind =
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
 * One field of a scenario's request, in the order the `valid fields` fix
 * lists them: a flag of its options table by its CLI name (`batch-sizes`),
 * whose JSON name and kind are derived (see fieldOfFlag), or a field the
 * scenario spells out because its name or kind differs from its flag's
 * (`models` is the repeated `--model`; `stop` gathers three flags).
 */
export type RequestField = string | { readonly field: string; readonly kind: FieldKind; readonly flags?: readonly string[] };

/**
 * Flags of a scenario's options table that no API request takes, and why.
 * The API takes every other option its command takes
 * (test/runs/api-takes-cli-options.test.ts checks each table against it;
 * docs/cli.md shows each flag's field or this reason). The CLI-wide slots
 * (`--wide`, `--quiet`, `--verbose`, `--details`) are left out too: they
 * shape the terminal's output, and a request has no terminal.
 */
export const CLI_ONLY_FLAGS: Readonly<Record<string, string>> = nameTable({
  out: 'the dashboard writes under the --out of `inferbench serve`',
  queue: 'a Redis URL may hold a password, never stored in a config; the dashboard runs on this machine',
  'on-each-worker': 'with --queue only',
  workers: 'with --queue only',
  'serve-models': 'with --queue only',
  'worker-timeout': 'with --queue only',
});

/** How a scenario's request part resolves a path inside the dashboard's root (its PathGuard), or throws a FieldError naming `field`. */
export interface PathCheck {
  check(field: string, path: string): string;
  checkModel(field: string, path: string): string;
}

/** A config's `models` and `dataset` (train's and load's shape) resolved again through the guard, for ScenarioApi.recheckPaths. */
export function recheckModelPaths<C extends { readonly models: readonly string[]; readonly dataset: string | null }>(config: C, guard: PathCheck): C {
  return { ...config, models: config.models.map((m) => guard.checkModel('model', m)), dataset: config.dataset === null ? null : guard.check('dataset', config.dataset) };
}

/** The field every scenario's request takes last: the history id to compare the new entry against. */
const COMPARE_WITH: readonly [string, FieldKind] = ['compareWith', 'id'];

/**
 * A flag's JSON field. A `--no-x` switch is the boolean `x` (`--no-png`
 * is `png: false`); a ranged flag is its OPTION_RANGES field, in that
 * field's unit (`--duration` in seconds is `durationMs`), a number or a
 * list of them as its placeholder shows (`1,8,32`); any other flag is its
 * name in camelCase, a name or a list of names.
 */
function fieldOfFlag(flag: FlagSpec): readonly [string, FieldKind] {
  const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  if (flag.kind === 'boolean') return [camel(flag.name.replace(/^no-/, '')), 'boolean'];
  const list = flag.arg?.includes(',') === true;
  if (flag.range === undefined) return [camel(flag.name), list ? 'names' : 'name'];
  const range = optionRange(flag.range);
  if (range.field.includes('.')) throw new Error(`flag --${flag.name} sets ${range.field}, part of an object field: list the object field itself`);
  return [range.field, range.integer ? (list ? 'ints' : 'int') : list ? 'numbers' : 'number'];
}

/**
 * A scenario's request fields with their kinds, from its options table and
 * its list, `compareWith` last. A name the list gives that is not a flag
 * of the table is a programming error, caught when the table is built.
 * A Map, so a name every object has (`constructor`, `__proto__`) is an
 * unknown field like any other.
 */
export function requestFieldKinds(options: ScenarioOptions, fields: readonly RequestField[]): ReadonlyMap<string, FieldKind> {
  const flags = options.flags.filter((f): f is FlagSpec => !isCliFlagSlot(f));
  const entries = fields.map((entry): readonly [string, FieldKind] => {
    if (typeof entry !== 'string') return [entry.field, entry.kind];
    const flag = flags.find((f) => f.name === entry);
    if (!flag) throw new Error(`request field ${entry} names no flag of \`${options.usage}\``);
    return fieldOfFlag(flag);
  });
  return new Map<string, FieldKind>([...entries, COMPARE_WITH]);
}

/**
 * The JSON field each flag of the options table goes in (`batch-sizes` →
 * `batchSizes`, `min-time` → `stop.minTimeMs`, `model` → `model, models`),
 * read from the same list as requestFieldKinds: a flag listed by name, or
 * named in the `flags` of a field the scenario spells out. A flag absent
 * here is one no request takes.
 */
export function requestFieldsOfFlags(options: ScenarioOptions, fields: readonly RequestField[]): ReadonlyMap<string, string> {
  const flags = options.flags.filter((f): f is FlagSpec => !isCliFlagSlot(f));
  const out = new Map<string, string>();
  const add = (flag: string, field: string) => out.set(flag, out.has(flag) ? `${out.get(flag) ?? ''}, ${field}` : field);
  for (const entry of fields) {
    if (typeof entry === 'string') {
      const flag = flags.find((f) => f.name === entry);
      if (flag) add(entry, fieldOfFlag(flag)[0]);
      continue;
    }
    for (const name of entry.flags ?? []) {
      const flag = flags.find((f) => f.name === name);
      if (!flag) throw new Error(`request field ${entry.field} names --${name}, no flag of \`${options.usage}\``);
      // A flag that fills one key of an object field (`stop`, `parity`) is that key: its range's field, else its name.
      const key = flag.range !== undefined ? optionRange(flag.range).field : `${entry.field}.${name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase())}`;
      add(name, entry.kind === 'stop' || entry.kind === 'parity' ? key : entry.field);
    }
  }
  return out;
}

const STOP_FIELDS = ['minTimeMs', 'minBatches', 'maxTimeMs'] as const;
const PARITY_FIELDS = ['reference', 'tolerance'] as const;
const MAX_TEXT = 4096;

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
const KIND_EXAMPLES: Readonly<Partial<Record<FieldKind, unknown>>> = { ints: [1, 8], threads: [1, 2], intOrNull: 256, int: 2, number: 2 };

/** What is wrong with the JSON type of one field, or null; values are checked by the CLI's own resolvers afterwards. */
function kindProblem(field: string, kind: FieldKind, value: unknown): { message: string; fix?: string } | null {
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
function checkKind(field: string, kind: FieldKind, value: unknown): void {
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
    // A null item is the engine default (`threads: [null, 2]`), as the CLI's resolver reads it; the kind check allowed it.
    asField(field, () => {
      for (const item of Array.isArray(value) ? value : [value]) if (item !== null) checkRange(field, item, 'field');
    });
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

/**
 * A request's `engines` with its `engineOptions` applied, for the scenarios
 * whose configs hold engine ids only (generate, load), as `--engine-options`
 * is on their command line (src/cli/engine-options-flag.ts): each engine
 * given options becomes its variants (`onnx-cpu [graphOptimizationLevel=disabled]`),
 * so the stored config replays them. Null: every engine.
 */
export function enginesWithOptionFields(fields: Readonly<Record<string, unknown>>, registry: EngineRegistry): string[] | null {
  const engines = (fields['engines'] as string[] | null | undefined) ?? null;
  const specs = (fields['engineOptions'] as string[] | null | undefined) ?? [];
  const names = engines === null ? null : asField('engines', () => registry.parseNames(engines, 'engines'));
  if (specs.length === 0) return names;
  if (names === null) fail('engineOptions', 'engineOptions needs engines: options apply to the engines a run names', 'add engines with the engine of each engineOptions');
  return asField('engineOptions', () => expandEngineVariants(names, specs, 'engineOptions', 'engines'));
}

/** Checks a request body's fields against the command's field list and their JSON types; splits off `compareWith`. */
export function checkFields(body: unknown, known: ReadonlyMap<string, FieldKind>, command: string): { fields: Record<string, unknown>; compareWith: number | null } {
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

