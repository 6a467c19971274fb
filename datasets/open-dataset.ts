import { readdir, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { hasErrorCode, UserError } from '../src/errors.js';
import { packageRoot } from '../src/package-info.js';
import { Dataset, type DataRow } from './dataset.js';
import { localFormatOf, readColumns, readRows, SUPPORTED_FORMATS_TEXT, type LocalFormat } from './local-files.js';

/** Name reports show for the built-in data set, and that `openDataset` accepts to mean it. */
export const EMBEDDED_DATASET_NAME = 'inferbench/default-sentiment';

/** Extensions of formats users ask for that are not read yet, so the error can say they are planned. */
const PLANNED_EXTENSIONS = ['.parquet', '.arrow'];

/**
 * Files a data folder may hold beside its shards (dataset cards, licences,
 * metadata) without making it "mixed". Anything else must be a shard.
 */
const METADATA_EXTENSIONS = ['', '.md', '.txt', '.json', '.yaml', '.yml', '.lock', '.gitattributes', '.gitignore'];

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
 * path gives a local file, or a folder of shards streamed in name order as
 * one data set. Problems the user can fix (missing path, unsupported or
 * mixed formats, empty file) are reported here, before any engine loads.
 */
export async function openDataset(source?: string): Promise<Dataset> {
  if (source === undefined || source === EMBEDDED_DATASET_NAME) return openEmbedded();
  const path = resolve(source);
  let info: Stats;
  try {
    info = await stat(path);
  } catch (err) {
    if (hasErrorCode(err, 'EACCES')) throw new UserError(`Cannot read ${path}: permission denied`, 'Check the permissions of the path.');
    if (!hasErrorCode(err, 'ENOENT') && !hasErrorCode(err, 'ENOTDIR')) throw err;
    throw new UserError(`Dataset not found: ${path}`, missingPathFix(source));
  }
  if (info.isDirectory()) return openFolder(source, path);
  return openFiles(source, [await checkedFile(path, info)]);
}

/**
 * Every text of the embedded data set, in file order. The default model's
 * tokenizer builds its vocabulary from these, so it covers the benchmark data.
 */
export async function embeddedTexts(): Promise<string[]> {
  const texts: string[] = [];
  for await (const row of await openEmbedded()) texts.push(String(row['text']));
  return texts;
}

async function openEmbedded(): Promise<Dataset> {
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

async function* readShards(files: readonly ShardFile[]): AsyncGenerator<DataRow> {
  for (const file of files) yield* readRows(file.path, file.format);
}

async function checkedFile(path: string, info: Stats): Promise<ShardFile> {
  const format = localFormatOf(path);
  if (format === undefined) {
    const ext = extname(path).toLowerCase();
    const planned = PLANNED_EXTENSIONS.includes(ext);
    throw new UserError(
      `Cannot read ${path}: ${planned ? `${ext.slice(1)} files are not supported yet` : `unsupported file type "${ext || '(no extension)'}"`}`,
      `Convert it to a supported format: ${SUPPORTED_FORMATS_TEXT}.${planned ? ' Parquet and Arrow support is planned.' : ''}${
        ext === '.txt' ? ' If it holds "text<TAB>label" lines, rename it to .tsv.' : ''
      }`,
    );
  }
  if (!info.isFile()) throw new UserError(`Cannot read ${path}: not a regular file`, 'Pass a data file or a folder of data files.');
  if (info.size === 0) {
    throw new UserError(`Data file ${path} is empty`, 'Point inferbench at a file with data, or remove the empty file from the folder.');
  }
  return { path, format };
}

/**
 * A folder is one data set split into shards (train-00000-of-00004.jsonl…),
 * streamed in name order. All shards must share one format, because a folder
 * mixing CSV and JSONL is usually two data sets side by side, and silently
 * ignoring a data file would benchmark less data than the user thinks.
 */
async function openFolder(name: string, folder: string): Promise<Dataset> {
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
  const planned = entries.some((e) => PLANNED_EXTENSIONS.includes(extname(e.name).toLowerCase()));
  const plannedNote = planned ? ' Parquet and Arrow support is planned.' : '';
  const dataFiles = others.filter((o) => !o.endsWith('/'));
  if (byFormat.size === 0) {
    throw new UserError(
      `No data files in folder ${folder}; found: ${found}`,
      `Put files of one supported format in the folder (${SUPPORTED_FORMATS_TEXT}), or pass a file path. Sub-folders are not searched.${plannedNote}`,
    );
  }
  if (byFormat.size > 1 || dataFiles.length > 0) {
    throw new UserError(
      `Folder ${folder} mixes file types; a folder is read as shards of one format. Found: ${found}`,
      `Keep the shards of one data set (all .jsonl, all .csv or all .tsv) in their own folder, or pass a single file.${plannedNote}`,
    );
  }
  const names = [...byFormat.values()][0] ?? [];
  const files: ShardFile[] = [];
  for (const fileName of names) {
    const path = join(folder, fileName);
    files.push(await checkedFile(path, await stat(path)));
  }
  return openFiles(name, files);
}

function missingPathFix(source: string): string {
  const fix = `Check the path. inferbench reads ${SUPPORTED_FORMATS_TEXT}, or a folder of such files.`;
  if (/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(source)) {
    return `${fix} "${source}" looks like a Hugging Face Hub name; inferbench does not download data, so download the files first (e.g. huggingface-cli download --repo-type dataset ${source} --local-dir data) and pass their folder.`;
  }
  return fix;
}
