/**
 * Reads architecture configs as users write them: a preset name
 * (`bert-base`), `key=value` pairs (`hidden=384,layers=6,heads=6`, optionally
 * `base=bert-base`), or a JSON file holding one config or a list. Mistakes
 * fail before anything is generated, with the key named as the user wrote it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { validateBertConfig, type BertLikeConfig } from './bert-config.js';
import { ARCHITECTURE_PRESETS, presetNames, type ArchitectureSpec } from './arch-presets.js';
import { UserError } from '../../core/errors.js';
import { lookupName } from '../../core/name-lookup.js';

type NumericKey = 'hiddenSize' | 'numLayers' | 'numHeads' | 'intermediateSize' | 'vocabSize' | 'maxPositions' | 'typeVocabSize' | 'numLabels' | 'seed';

/** Every spelling accepted for each field: short CLI form, BertLikeConfig camelCase, Hugging Face config.json. */
const KEY_ALIASES: Readonly<Record<NumericKey, readonly string[]>> = {
  hiddenSize: ['hidden', 'hiddenSize', 'hidden_size'],
  numLayers: ['layers', 'numLayers', 'num_hidden_layers'],
  numHeads: ['heads', 'numHeads', 'num_attention_heads'],
  intermediateSize: ['intermediate', 'intermediateSize', 'intermediate_size'],
  vocabSize: ['vocab', 'vocabSize', 'vocab_size'],
  maxPositions: ['positions', 'max-positions', 'maxPositions', 'max_position_embeddings'],
  typeVocabSize: ['type-vocab', 'typeVocabSize', 'type_vocab_size'],
  numLabels: ['labels', 'numLabels', 'num_labels'],
  seed: ['seed'],
};

const FIELD_BY_KEY = new Map<string, NumericKey>(
  Object.entries(KEY_ALIASES).flatMap(([field, keys]) => keys.map((k) => [k, field as NumericKey] as const)),
);

/** Keys that are not fields of the shape. */
const META_KEYS = ['name', 'base'] as const;

/** Keys a `--config` may use, short forms first, for error messages. */
export function validConfigKeys(): string[] {
  return [...Object.values(KEY_ALIASES).map((a) => a[0] as string), ...META_KEYS];
}

function preset(name: string, where: string): ArchitectureSpec {
  const found = lookupName(ARCHITECTURE_PRESETS, name);
  if (!found) {
    throw new UserError(`${where}: unknown preset "${name}"`, `use one of: ${presetNames().join(', ')}, or key=value pairs such as hidden=384,layers=6,heads=6`);
  }
  return found;
}

function wholeNumber(value: unknown, key: string, where: string, min: number): number {
  const n = typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < min) {
    const what = min === 0 ? 'a whole number ≥ 0' : 'a positive whole number';
    throw new UserError(`${where}: config key ${key} must be ${what}, got ${JSON.stringify(value)}`, `write e.g. ${key}=${key === 'seed' ? 42 : 384}`);
  }
  return n;
}

/**
 * Builds one spec from key/value entries. `where` is how the user gave it
 * (`--config hidden=100`, `configs.json[1]`), so every message points there.
 */
function specFromEntries(entries: readonly (readonly [string, unknown])[], defaultName: string, where: string): ArchitectureSpec {
  const baseEntry = entries.find(([k]) => k === 'base');
  const base = baseEntry ? preset(String(baseEntry[1]), where) : preset('tiny', where);
  const given = new Map<NumericKey, { key: string; value: number }>();
  let name = defaultName;
  for (const [key, value] of entries) {
    if (key === 'base') continue;
    if (key === 'name') {
      if (typeof value !== 'string' || value.trim() === '') throw new UserError(`${where}: config key name must be a non-empty string`, 'write e.g. name=my-bert');
      name = value.trim();
      continue;
    }
    const field = FIELD_BY_KEY.get(key);
    if (!field) {
      throw new UserError(`${where}: unknown config key "${key}"`, `valid keys: ${validConfigKeys().join(', ')} (or a preset: ${presetNames().join(', ')})`);
    }
    if (given.has(field)) throw new UserError(`${where}: config key ${key} is given twice`, 'give each key once');
    given.set(field, { key, value: wholeNumber(value, key, where, field === 'seed' ? 0 : 1) });
  }
  const config: Record<string, unknown> = { ...base.config };
  for (const [field, { value }] of given) config[field] = value;
  const cfg = config as unknown as BertLikeConfig;
  const hidden = given.get('hiddenSize');
  const heads = given.get('numHeads');
  if (cfg.hiddenSize % cfg.numHeads !== 0) {
    const hiddenKey = hidden?.key ?? `hidden (from ${base.name})`;
    const headsKey = heads?.key ?? `heads (from ${base.name})`;
    throw new UserError(
      `${where}: config key ${hidden ? hidden.key : heads?.key ?? 'hidden'}: ${hiddenKey}=${cfg.hiddenSize} is not divisible by ${headsKey}=${cfg.numHeads}`,
      `choose ${heads?.key ?? 'heads'} among the divisors of ${cfg.hiddenSize}, or change ${hidden?.key ?? 'hidden'}`,
    );
  }
  if (given.has('numLabels') && cfg.numLabels !== base.config.numLabels) {
    config['id2label'] = Object.fromEntries(Array.from({ length: cfg.numLabels }, (_, i) => [i, `LABEL_${i}`]));
  }
  try {
    validateBertConfig(cfg);
  } catch (err) {
    if (err instanceof UserError) throw new UserError(`${where}: ${err.message}`, err.fix);
    throw err;
  }
  return { name, config: cfg, padVocabulary: given.has('vocabSize') || base.padVocabulary };
}

/** Parses `hidden=384,layers=6,heads=6` (or a preset name) as given to `--config`. */
export function parseArchitectureText(text: string, flag = '--config'): ArchitectureSpec {
  const trimmed = text.trim();
  const where = `${flag} ${trimmed}`;
  if (!trimmed.includes('=')) return preset(trimmed, where);
  const entries = trimmed
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part): [string, string] => {
      const eq = part.indexOf('=');
      if (eq <= 0) throw new UserError(`${where}: "${part}" is not key=value`, 'write --config hidden=384,layers=6,heads=6');
      return [part.slice(0, eq).trim(), part.slice(eq + 1).trim()];
    });
  return specFromEntries(entries, trimmed, where);
}

/** Reads a JSON file with one config object, or a list of them; a string item names a preset. */
export function readArchitectureFile(path: string): ArchitectureSpec[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UserError(`cannot read architecture config ${path}: ${(err as Error).message}`, 'pass --config a JSON file with an object such as {"hidden": 384, "layers": 6, "heads": 6}, or a list of them');
  }
  const items = Array.isArray(json) ? json : [json];
  if (items.length === 0) throw new UserError(`architecture config ${path} is an empty list`, 'put at least one config in it');
  const stem = basename(path).replace(/\.json$/i, '');
  return items.map((item, i) => {
    const where = Array.isArray(json) ? `${path}[${i}]` : path;
    if (typeof item === 'string') return preset(item, where);
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new UserError(`${where}: expected a config object or a preset name, got ${JSON.stringify(item)}`, 'write e.g. {"hidden": 384, "layers": 6, "heads": 6}');
    }
    return specFromEntries(Object.entries(item), Array.isArray(json) ? `${stem}-${i}` : stem, where);
  });
}

/**
 * Resolves every `--config` value in order: a JSON file when the value names
 * an existing file (or ends in .json), otherwise a preset or key=value text.
 * Row names must be unique, since each config is its own row.
 */
export function parseArchitectures(values: readonly string[], flag = '--config'): ArchitectureSpec[] {
  const specs = values.flatMap((value) => {
    const isFile = /\.json$/i.test(value.trim()) || (existsSync(value) && statSync(value).isFile());
    if (isFile && !existsSync(value)) throw new UserError(`${flag} ${value}: file not found`, 'pass an existing JSON file, a preset name, or key=value pairs');
    return isFile ? readArchitectureFile(value) : [parseArchitectureText(value, flag)];
  });
  const seen = new Set<string>();
  for (const s of specs) {
    if (seen.has(s.name)) throw new UserError(`${flag}: two configs are named "${s.name}"`, 'give each config a distinct name (name=… in key=value form, "name" in JSON)');
    seen.add(s.name);
  }
  return specs;
}
