import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hasErrorCode, UserError } from '../src/core/errors.js';

/** Split read from a DatasetDict folder when none is named, as with `load_dataset`. */
export const DEFAULT_LOCAL_SPLIT = 'train';

async function readJson(path: string): Promise<unknown | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (hasErrorCode(err, 'ENOENT')) return undefined;
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${path} is not valid JSON (${err instanceof Error ? err.message : String(err)})`, 'Save the dataset again with save_to_disk.');
  }
}

/**
 * The splits of a folder written by `DatasetDict.save_to_disk`
 * (`dataset_dict.json` with `{"splits": [...]}`, one sub-folder each), or
 * undefined when the folder is not one.
 */
export async function savedDatasetDictSplits(folder: string): Promise<string[] | undefined> {
  const path = join(folder, 'dataset_dict.json');
  const dict = await readJson(path);
  if (dict === undefined) return undefined;
  const splits = (dict as { splits?: unknown }).splits;
  if (!Array.isArray(splits) || !splits.every((s) => typeof s === 'string')) {
    throw new UserError(`${path} does not list its splits`, 'Save the dataset again with DatasetDict.save_to_disk.');
  }
  return splits as string[];
}

/**
 * The Arrow shards of a folder written by `Dataset.save_to_disk`, in the
 * order its `state.json` lists them (`_data_files`), or undefined when the
 * folder has no `state.json`. The order matters: rows must stream in the
 * dataset's own order so every engine sees the same ones.
 */
export async function savedDatasetShards(folder: string): Promise<string[] | undefined> {
  const path = join(folder, 'state.json');
  const state = await readJson(path);
  if (state === undefined) return undefined;
  const files = (state as { _data_files?: unknown })._data_files;
  const names = Array.isArray(files) ? files.map((f) => (f as { filename?: unknown }).filename) : undefined;
  if (names === undefined || names.length === 0 || !names.every((n): n is string => typeof n === 'string' && !n.includes('/') && !n.includes('\\'))) {
    throw new UserError(`${path} lists no data files (_data_files)`, 'Save the dataset again with Dataset.save_to_disk.');
  }
  return names.map((n) => join(folder, n));
}

/** Error for a split a DatasetDict folder does not have, listing the ones it has. */
export function unknownLocalSplit(folder: string, split: string, splits: readonly string[]): UserError {
  return new UserError(
    `${folder} has no split "${split}"; its splits are: ${splits.map((s) => `"${s}"`).join(', ') || '(none)'}`,
    'Pass one of the listed splits with --split (or `split` in code).',
  );
}
