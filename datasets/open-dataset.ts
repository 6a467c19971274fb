import { readdir, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { hasErrorCode, UserError } from '../src/core/errors.js';
import { HubHttpError } from '../src/hub/hub-fetch.js';
import { packageRoot } from '../src/core/package-info.js';
import { Dataset, type DataRow } from './dataset.js';
import { looksLikeHubId, HUB_PREFIX, openHubDataset, type HubDatasetOptions } from './hub-dataset.js';
import { localFormatOf, readBatches, readColumns, readJsonlFile, SUPPORTED_FORMATS_TEXT, type LocalFormat } from './local-files.js';
import { rowsOfBatches } from './row-batches.js';
import { DEFAULT_LOCAL_SPLIT, savedDatasetDictSplits, savedDatasetShards, unknownLocalSplit } from './save-to-disk.js';

/** Name reports show for the built-in data set, and that `openDataset` accepts to mean it. */
export const EMBEDDED_DATASET_NAME = 'inferbench/default-sentiment';

/**
 * Files a data folder may hold beside its shards (dataset cards, licences,
 * metadata) without making it "mixed". Anything else must be a shard.
 */
const METADATA_EXTENSIONS = ['', '.md', '.txt', '.json', '.yaml', '.yml', '.lock', '.gitattributes', '.gitignore'];

/** Options of `openDataset`: which config and split, and Hub settings. */
export type OpenDatasetOptions = HubDatasetOptions;

/**
 * Absolute path of the embedded data set. Compiled code runs from `dist/…`
 * while the data file stays in `datasets/default/`, so the path is resolved
 * from the package root rather than from this module.
 */
export function embeddedDatasetPath(): string {
  return join(packageRoot(), 'datasets', 'default', 'sentiment.jsonl');
}

/**
 * Opens a data set for streaming. No argument (or EMBEDDED_DATASET_NAME)
 * gives the built-in sentiment set, so a benchmark runs with zero setup; a
 * path gives a local file (Parquet, Arrow, JSONL, CSV, TSV), a folder of
 * shards streamed in name order as one data set, or a `save_to_disk` folder;
 * an id such as `org/name` that is not a local path gives that Hugging Face
 * Hub dataset (`options.config`, `options.split`, default split `train`).
 * Problems the user can fix (missing path, unsupported or mixed formats,
 * empty file, unknown dataset, config or split) are reported here, before
 * any engine opens.
 */
export async function openDataset(source?: string, options: OpenDatasetOptions = {}): Promise<Dataset> {
  if (source !== undefined) {
    const parsed = parseSourceString(source);
    source = parsed.source;
    options = { ...parsed.options, ...definedOnly(options) };
  }
  if (source === undefined || source === EMBEDDED_DATASET_NAME) {
    rejectOptions(options, 'the embedded dataset', true);
    return openEmbedded();
  }
  if (source.startsWith(HUB_PREFIX)) return openHubDataset(source, options);
  const path = resolve(source);
  let info: Stats;
  try {
    info = await stat(path);
  } catch (err) {
    if (hasErrorCode(err, 'EACCES')) throw new UserError(`Cannot read ${path}: permission denied`, 'Check the permissions of the path.');
    if (!hasErrorCode(err, 'ENOENT') && !hasErrorCode(err, 'ENOTDIR')) throw err;
    if (looksLikeHubId(source)) return openHubDataset(source, options).catch((e: unknown) => Promise.reject(notLocalEither(e, path)));
    throw new UserError(`Dataset not found: ${path}`, missingPathFix());
  }
  if (info.isDirectory()) return openFolder(source, path, options);
  rejectOptions(options, path, true);
  return openFiles(source, [await checkedFile(path, info)]);
}

/** `#config=…&split=…` at the end of a source string (see datasetSourceString). */
const SOURCE_OPTIONS = /#((?:config|split)=[^#&]*(?:&(?:config|split)=[^#&]*)*)$/u;

/**
 * One string for a source with its config and split,
 * `<source>#config=<config>&split=<split>`, which `openDataset` reads back.
 * It lets a process that only gets a string (an isolated engine child)
 * re-open exactly the split the parent opened.
 */
export function datasetSourceString(source: string, options: { config?: string; split?: string }): string {
  const params = new URLSearchParams();
  if (options.config !== undefined) params.set('config', options.config);
  if (options.split !== undefined) params.set('split', options.split);
  const query = params.toString();
  return query === '' ? source : `${source}#${query}`;
}

function parseSourceString(source: string): { source: string; options: { config?: string; split?: string } } {
  const match = SOURCE_OPTIONS.exec(source);
  if (!match) return { source, options: {} };
  const params = new URLSearchParams(match[1]);
  const options: { config?: string; split?: string } = {};
  const config = params.get('config');
  const split = params.get('split');
  if (config !== null) options.config = config;
  if (split !== null) options.split = split;
  return { source: source.slice(0, match.index), options };
}

function definedOnly(options: OpenDatasetOptions): OpenDatasetOptions {
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as OpenDatasetOptions;
}

/** Config and split only mean something for Hub datasets and DatasetDict folders; elsewhere they are a mistake, not ignored. */
function rejectOptions(options: OpenDatasetOptions, what: string, splitToo: boolean): void {
  if (options.config !== undefined) {
    throw new UserError(`A dataset config ("${options.config}") was given, but ${what} is not a Hugging Face Hub dataset`, 'Leave out --dataset-config, or pass a Hub id such as org/name.');
  }
  if (splitToo && options.split !== undefined) {
    throw new UserError(
      `A split ("${options.split}") was given, but ${what} has no splits`,
      'Leave out --split; splits apply to Hub datasets, DatasetDict.save_to_disk folders and folders of <split>-00000-of-00001 shards.',
    );
  }
}

/**
 * Every text of the embedded data set, in file order. The default model's
 * tokenizer builds its vocabulary from these, so it covers the benchmark data.
 */
export async function embeddedTexts(): Promise<string[]> {
  return (await readJsonlFile(await embeddedFile())).map((row) => String(row['text']));
}

/** The embedded data file's path, once it is known to be there: an installation without it is a clear error, not ENOENT. */
async function embeddedFile(): Promise<string> {
  const path = embeddedDatasetPath();
  try {
    await stat(path);
  } catch (err) {
    if (!hasErrorCode(err, 'ENOENT')) throw err;
    throw new UserError(
      `The embedded dataset is missing from this installation (${path})`,
      'Reinstall inferbench, or regenerate it with: npm run build && node dist/tools/generate-default-dataset.js',
    );
  }
  return path;
}

async function openEmbedded(): Promise<Dataset> {
  const path = await embeddedFile();
  const files: ShardFile[] = [{ path, format: 'jsonl' }];
  return new Dataset(EMBEDDED_DATASET_NAME, () => readShards(files), () => readColumns(path, 'jsonl'));
}

interface ShardFile {
  readonly path: string;
  readonly format: LocalFormat;
}

function openFiles(name: string, files: readonly ShardFile[]): Dataset {
  const first = files[0];
  if (first === undefined) throw new Error('openFiles needs at least one file');
  return new Dataset(name, () => readShards(files), () => readColumns(first.path, first.format));
}

/** The rows of every shard in order, through one iterator (a generator hop per row would slow large files down). */
function readShards(files: readonly ShardFile[]): AsyncIterable<DataRow> {
  return rowsOfBatches(async function* shardBatches() {
    for (const file of files) yield* readBatches(file.path, file.format);
  });
}

async function checkedFile(path: string, info: Stats): Promise<ShardFile> {
  const format = localFormatOf(path);
  if (format === undefined) {
    const ext = extname(path).toLowerCase();
    throw new UserError(
      `Cannot read ${path}: unsupported file type "${ext || '(no extension)'}"`,
      `Convert it to a supported format: ${SUPPORTED_FORMATS_TEXT}.${ext === '.txt' ? ' If it holds "text<TAB>label" lines, rename it to .tsv.' : ''}`,
    );
  }
  if (!info.isFile()) throw new UserError(`Cannot read ${path}: not a regular file`, 'Pass a data file or a folder of data files.');
  if (info.size === 0) {
    throw new UserError(`Data file ${path} is empty`, 'Point inferbench at a file with data, or remove the empty file from the folder.');
  }
  return { path, format };
}

/** `train-00000-of-00004.parquet` → `train`: the split naming the Hub and `datasets` use for shard files. */
const SPLIT_SHARD = /^([A-Za-z][A-Za-z0-9_]*)-\d{5}-of-\d{5}\b/u;

/**
 * A folder is one data set: a `DatasetDict.save_to_disk` folder (the split's
 * sub-folder is read), a `Dataset.save_to_disk` folder (its Arrow shards in
 * `state.json` order), or shards of one format streamed in name order
 * (train-00000-of-00004.jsonl…). When shard names carry several splits
 * (`train-…`, `test-…`), only the requested split (default `train`) is read.
 * A folder mixing formats is an error, because it is usually two data sets
 * side by side, and silently ignoring a data file would benchmark less data
 * than the user thinks.
 */
async function openFolder(name: string, folder: string, options: OpenDatasetOptions): Promise<Dataset> {
  rejectOptions(options, folder, false);
  const dictSplits = await savedDatasetDictSplits(folder);
  if (dictSplits !== undefined) {
    const split = options.split ?? DEFAULT_LOCAL_SPLIT;
    if (!dictSplits.includes(split)) throw unknownLocalSplit(folder, split, dictSplits);
    return openFolder(`${name} (${split})`, join(folder, split), {});
  }
  const saved = await savedDatasetShards(folder);
  if (saved !== undefined) {
    rejectOptions(options, folder, true);
    const files: ShardFile[] = [];
    for (const path of saved) {
      const info = await stat(path).catch(() => undefined);
      if (info === undefined) throw new UserError(`${join(folder, 'state.json')} lists ${path}, which does not exist`, 'Save the dataset again with save_to_disk.');
      files.push(await checkedFile(path, info));
    }
    return openFiles(name, files);
  }
  const entries = (await readdir(folder, { withFileTypes: true })).filter((e) => !e.name.startsWith('.'));
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const byFormat = new Map<LocalFormat, string[]>();
  const others: string[] = [];
  for (const entry of entries) {
    const format = entry.isFile() ? localFormatOf(entry.name) : undefined;
    if (format !== undefined) {
      byFormat.set(format, [...(byFormat.get(format) ?? []), entry.name]);
    } else if (entry.isDirectory()) {
      others.push(`${entry.name}/`);
    } else if (!METADATA_EXTENSIONS.includes(extname(entry.name).toLowerCase())) {
      others.push(entry.name);
    }
  }
  const found = entries.length > 0 ? entries.map((e) => (e.isDirectory() ? `${e.name}/` : e.name)).join(', ') : '(nothing)';
  const dataFiles = others.filter((o) => !o.endsWith('/'));
  if (byFormat.size === 0) {
    throw new UserError(
      `No data files in folder ${folder}; found: ${found}`,
      `Put files of one supported format in the folder (${SUPPORTED_FORMATS_TEXT}), or pass a file path. Sub-folders are not searched.`,
    );
  }
  if (byFormat.size > 1 || dataFiles.length > 0) {
    throw new UserError(
      `Folder ${folder} mixes file types; a folder is read as shards of one format. Found: ${found}`,
      'Keep the shards of one data set (all .parquet, all .jsonl, all .csv…) in their own folder, or pass a single file.',
    );
  }
  const names = selectSplit(folder, [...byFormat.values()][0] ?? [], options.split);
  const files: ShardFile[] = [];
  for (const fileName of names) {
    const path = join(folder, fileName);
    files.push(await checkedFile(path, await stat(path)));
  }
  return openFiles(name, files);
}

/** Keeps the shards of one split when the names carry several (`train-00000-of-00002…`, `test-00000-of-00001…`). */
function selectSplit(folder: string, names: readonly string[], wanted: string | undefined): string[] {
  const splitOf = (n: string): string | undefined => SPLIT_SHARD.exec(n)?.[1];
  const splits = [...new Set(names.map(splitOf).filter((s): s is string => s !== undefined))];
  if (splits.length < 2 || names.some((n) => splitOf(n) === undefined)) {
    if (wanted !== undefined && !(splits.length === 1 && splits[0] === wanted)) {
      throw new UserError(`A split ("${wanted}") was given, but the shards in ${folder} are not named by split`, 'Leave out --split, or name shards <split>-00000-of-00001.<ext>.');
    }
    return [...names];
  }
  const split = wanted ?? DEFAULT_LOCAL_SPLIT;
  if (!splits.includes(split)) throw unknownLocalSplit(folder, split, splits);
  return names.filter((n) => splitOf(n) === split);
}

/** A Hub "not found" for an id that could also have been a mistyped path says that no such path exists either. */
function notLocalEither(err: unknown, path: string): unknown {
  if (!(err instanceof HubHttpError) || (err.status !== 404 && err.status !== 401)) return err;
  return new HubHttpError(err.status, err.url, `${err.message}; there is no local file or folder ${path} either`, `${err.fix ?? ''} For a local dataset, check the path.`.trim());
}

function missingPathFix(): string {
  return `Check the path. inferbench reads ${SUPPORTED_FORMATS_TEXT}, or a folder of such files; a Hugging Face dataset is given by its id (org/name).`;
}
