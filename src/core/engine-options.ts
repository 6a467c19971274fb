/**
 * Engine options (`--engine-options ENGINE:key=v1|v2;key2=w`): the frozen
 * table each engine family declares beside its registration, the pure
 * parser and validator of the flag, and the variant ids that carry a
 * combination of values through a sweep (`onnx-cpu [graphOptimizationLevel=disabled]`).
 *
 * A variant is named by its engine id and the canonical form of its values
 * (`key=value;…`, keys sorted), so every table, chart, CSV and comparison
 * that keys on a cell's engine tells variants apart without knowing of
 * options, as `--dtype` variants are told apart by their model name.
 */
import { UserError } from './errors.js';
import { isOwnName, nameTable } from './name-lookup.js';

/** What values an option takes. */
export type OptionType =
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'boolean' }
  | { readonly kind: 'integer'; readonly min: number; readonly max: number }
  /** Free text checked by `pattern` (e.g. `name:N,name:N`), described by `form`. */
  | { readonly kind: 'text'; readonly pattern: RegExp; readonly form: string };

/** One row of an engine's option table. */
export interface EngineOptionSpec {
  readonly key: string;
  readonly type: OptionType;
  /** The engine's default, as the user would write it (`all`, `true`, `1`). */
  readonly default: string;
  /** What it does, in one line. */
  readonly doc: string;
  /** How inferbench applies it (the API it sets). */
  readonly applied: string;
  /** How it is read back, or why it cannot be. */
  readonly readBack: string;
}

/** An engine's options by key. */
export type EngineOptionTable = Readonly<Record<string, EngineOptionSpec>>;

/** One combination of values, by key, as the user wrote them (already checked). */
export type EngineOptionValues = Readonly<Record<string, string>>;

/** Freezes a table given as a list (its order is the order `engines --options` prints). */
export function optionTable(specs: readonly EngineOptionSpec[]): EngineOptionTable {
  return nameTable(Object.fromEntries(specs.map((s) => [s.key, Object.freeze(s)])));
}

const tables = new Map<string, EngineOptionTable>();
const grids = new Map<string, readonly EngineOptionValues[]>();

/**
 * Declares the options of `engineId`, and the frozen candidate grid
 * `inferbench tune` searches for it (besides its defaults, always a
 * candidate); called by an engine family's register.ts beside `registerEngine`.
 */
export function registerEngineOptions(engineId: string, table: EngineOptionTable, grid: readonly EngineOptionValues[] = []): void {
  if (tables.has(engineId)) throw new Error(`engine "${engineId}" has its options registered twice`);
  tables.set(engineId, table);
  grids.set(engineId, Object.freeze(grid.map((g) => Object.freeze({ ...g }))));
}

/** `tune`'s candidates for `engineId`: its defaults (`{}`) first, then its frozen grid. */
export function tuneGrid(engineId: string): readonly EngineOptionValues[] {
  return [{}, ...(grids.get(engineId) ?? [])];
}

/** The options `engineId` takes; an empty table for an engine that declares none. */
export function engineOptionTable(engineId: string): EngineOptionTable {
  return tables.get(engineId) ?? nameTable({});
}

/** `disabled|basic|…`, `true|false`, `1..64`, or the text form: what a value of `type` may be. */
export function allowedValues(type: OptionType): string {
  switch (type.kind) {
    case 'enum':
      return type.values.join('|');
    case 'boolean':
      return 'true|false';
    case 'integer':
      return `an integer ${type.min}..${type.max}`;
    case 'text':
      return type.form;
  }
}

/** Null when `value` is allowed, else why not. */
function valueProblem(type: OptionType, value: string): string | null {
  switch (type.kind) {
    case 'enum':
      return type.values.includes(value) ? null : `use one of ${type.values.join(', ')}`;
    case 'boolean':
      return value === 'true' || value === 'false' ? null : 'use true or false';
    case 'integer': {
      const n = Number(value);
      return /^-?\d+$/.test(value) && n >= type.min && n <= type.max ? null : `use ${allowedValues(type)}`;
    }
    case 'text':
      return type.pattern.test(value) ? null : `use ${type.form}`;
  }
}

/** The typed value an engine API takes: a boolean, a number, or the text. */
export function typedValue(spec: EngineOptionSpec, value: string): string | number | boolean {
  if (spec.type.kind === 'boolean') return value === 'true';
  if (spec.type.kind === 'integer') return Number(value);
  return value;
}

/** One `--engine-options` value, parsed: an engine and every value given per key, in the user's order. */
export interface EngineOptionsSpec {
  readonly engine: string;
  readonly values: Readonly<Record<string, readonly string[]>>;
}

/**
 * Parses `ENGINE:key=v1|v2;key2=w` and checks it against the engine's table.
 * Errors are UserErrors (exit 2) naming the engine's keys, or the key's
 * allowed values, so a typo is fixed in one try.
 */
export function parseEngineOptions(text: string, flag = '--engine-options'): EngineOptionsSpec {
  const colon = text.indexOf(':');
  const form = `${flag} ENGINE:key=v1|v2;key2=w (e.g. onnx-cpu:graphOptimizationLevel=disabled|all)`;
  if (colon <= 0) throw new UserError(`${flag} ${JSON.stringify(text)} names no engine`, `write ${form}`);
  const engine = text.slice(0, colon).trim();
  const table = engineOptionTable(engine);
  const keys = Object.keys(table);
  if (keys.length === 0) throw new UserError(`${flag}: engine ${engine} takes no options`, `engines with options: ${[...tables.keys()].filter((id) => Object.keys(engineOptionTable(id)).length > 0).join(', ')}`);
  const values: Record<string, readonly string[]> = {};
  const parts = text.slice(colon + 1).split(';').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) throw new UserError(`${flag} ${JSON.stringify(text)} gives ${engine} no option`, `write ${form}; ${engine} takes ${keys.join(', ')}`);
  for (const part of parts) {
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    if (!isOwnName(table, key)) throw new UserError(`${flag}: ${engine} has no option ${JSON.stringify(key)}`, `${engine} takes ${keys.join(', ')} (see \`inferbench engines --options ${engine}\`)`);
    const spec = table[key] as EngineOptionSpec;
    if (eq < 0) throw new UserError(`${flag}: ${engine} option ${key} has no value`, `write ${key}=${allowedValues(spec.type)}`);
    if (Object.hasOwn(values, key)) throw new UserError(`${flag}: ${engine} option ${key} is given twice`, `give its values once, separated by |: ${key}=a|b`);
    const given = part.slice(eq + 1).split('|').map((v) => v.trim());
    for (const v of given) {
      const problem = valueProblem(spec.type, v);
      if (problem !== null) throw new UserError(`${flag}: ${engine} option ${key} cannot be ${JSON.stringify(v)}`, `${problem} (default ${spec.default})`);
    }
    values[key] = [...new Set(given)];
  }
  return { engine, values };
}

/** Every combination of the given values, first key slowest, in the order they were given. */
export function optionCombinations(values: Readonly<Record<string, readonly string[]>>): EngineOptionValues[] {
  let out: Record<string, string>[] = [{}];
  for (const [key, vs] of Object.entries(values)) out = out.flatMap((combo) => vs.map((v) => ({ ...combo, [key]: v })));
  return out;
}

/** `key=value;…` with keys sorted: one spelling per combination, empty for the defaults. */
export function canonicalOptions(values: EngineOptionValues): string {
  return Object.keys(values)
    .sort()
    .map((k) => `${k}=${values[k] as string}`)
    .join(';');
}

/** `onnx-cpu [graphOptimizationLevel=disabled]`: the id a variant runs under; the engine id alone for the defaults. */
export function variantId(engine: string, values: EngineOptionValues): string {
  const canonical = canonicalOptions(values);
  return canonical === '' ? engine : `${engine} [${canonical}]`;
}

/** The engine and values of a variant id, or null for a plain engine id. Values are not checked here. */
export function parseVariantId(id: string): { readonly engine: string; readonly values: EngineOptionValues } | null {
  const m = /^(\S+) \[(.+)\]$/.exec(id);
  if (m === null) return null;
  const values: Record<string, string> = {};
  for (const part of (m[2] as string).split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    values[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return { engine: m[1] as string, values };
}

/** The engine id of a cell's engine, variant or not. */
export function baseEngineId(id: string): string {
  return parseVariantId(id)?.engine ?? id;
}

/** The canonical options of a cell's engine: empty for a plain engine id. */
export function engineOptionsOf(id: string): string {
  const v = parseVariantId(id);
  return v === null ? '' : canonicalOptions(v.values);
}

/** Checks a variant id's values against its engine's table (a stored config, an API body); throws the parser's errors. */
export function checkVariantId(id: string, flag = 'engines'): void {
  const v = parseVariantId(id);
  if (v === null) return;
  parseEngineOptions(`${v.engine}:${Object.entries(v.values).map(([k, x]) => `${k}=${x}`).join(';')}`, flag);
}

/**
 * The engine list a sweep runs: each engine given options becomes its
 * variants, in place; the others run their defaults. Options for an engine
 * not in `engines` are a user error, since they would silently do nothing.
 */
export function expandEngineVariants(engines: readonly string[], specs: readonly string[], flag = '--engine-options', enginesFlag = '--engines'): string[] {
  const parsed = specs.map((s) => parseEngineOptions(s, flag));
  const seen = new Set<string>();
  for (const p of parsed) {
    if (seen.has(p.engine)) throw new UserError(`${flag} is given twice for ${p.engine}`, `give one ${flag} per engine, with several values as key=a|b`);
    seen.add(p.engine);
    if (!engines.includes(p.engine)) throw new UserError(`${flag} names ${p.engine}, which is not in ${enginesFlag} (${engines.join(', ') || 'none'})`, `add ${p.engine} to ${enginesFlag}, or drop its ${flag}`);
  }
  return engines.flatMap((e) => {
    const p = parsed.find((x) => x.engine === e);
    return p === undefined ? [e] : optionCombinations(p.values).map((values) => variantId(e, values));
  });
}
