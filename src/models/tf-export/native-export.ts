/**
 * Writes an ONNX graph as a tfjs GraphModel or a TensorFlow SavedModel, in
 * TypeScript: `inferbench export` writes into a folder the user names, and
 * the native tfjs engines read theirs from the content-addressed cache
 * (`<cache>/native/<sha256>/`), as the quantizers do for their variants:
 * the hash covers the ONNX bytes (and external data), the format and the
 * exporter's version. Either folder is a model folder of its own (config
 * and tokenizer copied beside the graph), so `--model` takes it.
 */
import { createHash } from 'node:crypto';
import { makeFolders } from '../../core/folders.js';
import { sweepStaleTemporaries, temporaryPath, trackTemporary } from '../../core/temporaries.js';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readOnnxModel } from '../../core/onnx/onnx-decode.js';
import { inferbenchVersion } from '../../core/package-info.js';
import { defaultCacheRoot } from '../../core/cache-root.js';
import { copyModelFiles } from '../quantize/quantize-cache.js';
import { graphModelFiles } from './graph-model-writer.js';
import { convertOnnxToTf } from './onnx-to-tf.js';
import { savedModelFiles } from './saved-model-writer.js';
import { NATIVE_FILE, type NativeFormat } from './native-formats.js';

/** What the exporter records beside the files, and returns. */
export const EXPORT_META_FILE = 'inferbench-export.json';

/** Bumped whenever the written graph changes, so old cache entries are not reused. */
export const NATIVE_EXPORTER_VERSION = 7;

/** One export: where it is and what the reader should know. */
export interface NativeExport {
  readonly format: NativeFormat;
  readonly dir: string;
  /** `model.json` or `saved_model.pb` in `dir`. */
  readonly file: string;
  readonly source: string;
  readonly nodes: number;
  readonly notes: readonly string[];
  readonly fromCache: boolean;
}

interface ExportMeta {
  readonly format: NativeFormat;
  readonly source: string;
  readonly exporterVersion: number;
  readonly nodes: number;
  readonly notes: readonly string[];
  readonly onnxOps: Readonly<Record<string, number>>;
}

/**
 * Converts the graph at `onnxPath` and writes `format`'s files into `dir`
 * (created; existing files of the same names are replaced). ExportRefused
 * propagates before anything is written.
 */
export async function writeNativeModel(onnxPath: string, format: NativeFormat, dir: string): Promise<Omit<NativeExport, 'fromCache'>> {
  const model = await readOnnxModel(onnxPath);
  const producer = `inferbench ${inferbenchVersion()} (ONNX opset ${model.opset}${model.producer ? `, from ${model.producer}` : ''})`;
  const { graph, notes, onnxOps } = await convertOnnxToTf(model, format, producer);
  const noteLines = [
    format === 'graph-model' ? 'int64 tensors written as int32 (tfjs has no int64)' : 'int64 kept as int64 inside the graph (TensorFlow computes in it)',
    ...(notes.saturated.length > 0 ? [`int64 constants beyond int32 saturated (Slice bounds past the end): ${notes.saturated.join(', ')}`] : []),
    ...(notes.widenedInputs.length > 0 ? [`int64 inputs ${notes.widenedInputs.join(', ')} are fed as int32 and widened to int64 in the graph (tfjs has no int64; tfjs-node 4.22 widens int32 feeds to an int64 signature without sign extension)`] : []),
    ...(notes.narrowedOutputs.length > 0 ? [`int64 outputs ${notes.narrowedOutputs.join(', ')} leave the graph as int32 (tfjs has no int64)`] : []),
  ];
  await mkdir(dir, { recursive: true });
  if (format === 'graph-model') {
    const files = graphModelFiles(graph, producer);
    for (const [name, bytes] of files.shards) await writeFile(join(dir, name), bytes);
    await writeFile(join(dir, NATIVE_FILE[format]), JSON.stringify(files.modelJson));
  } else {
    const files = savedModelFiles(graph);
    await mkdir(join(dir, 'variables'), { recursive: true });
    for (const [name, bytes] of files.variables) await writeFile(join(dir, name), bytes);
    await writeFile(join(dir, NATIVE_FILE[format]), files.savedModel);
  }
  const meta: ExportMeta = { format, source: onnxPath, exporterVersion: NATIVE_EXPORTER_VERSION, nodes: graph.nodes.length, notes: noteLines, onnxOps };
  await writeFile(join(dir, EXPORT_META_FILE), `${JSON.stringify(meta, null, 2)}\n`);
  return { format, dir, file: join(dir, NATIVE_FILE[format]), source: onnxPath, nodes: graph.nodes.length, notes: noteLines };
}

async function fileHash(path: string, hash = createHash('sha256')): Promise<void> {
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
}

/** Folder of the exported formats: `<cache root>/native`. */
export function nativeCacheRoot(root = defaultCacheRoot()): string {
  return join(root, 'native');
}

/** The model folder of an ONNX file: the folder holding `onnx/`, or the file's own folder. */
function modelFolderOf(onnxPath: string): string {
  const dir = dirname(onnxPath);
  return basename(dir) === 'onnx' ? dirname(dir) : dir;
}

/**
 * Writes a model folder holding `format` of the ONNX graph at `onnxPath`
 * into `dir`: the source folder's config and tokenizer, then the graph
 * files. Written under a temporary name beside `dir` and renamed when
 * complete, so `dir` is either whole or absent; `dir` must not exist yet
 * (or be an empty folder). Another writer finishing the same `dir` first
 * wins when `shared` (the cache). The temporary (temporaries.ts) is removed
 * on a failure and by a stop that quits at once; one a killed export left
 * is removed by the next export to `dir`.
 */
export async function writeModelFolder(onnxPath: string, format: NativeFormat, dir: string, shared = false): Promise<Omit<NativeExport, 'fromCache'>> {
  await sweepStaleTemporaries(dir);
  const partial = temporaryPath(dir, 'partial');
  const tracked = trackTemporary(partial);
  try {
    // One level at a time (folders.ts): a recursive mkdir spins forever where a file system answers ENOENT (/proc).
    await makeFolders(dirname(partial));
    await mkdir(partial);
    // Config and tokenizer first, so the graph files written after them win any name clash.
    await copyModelFiles(modelFolderOf(onnxPath), partial);
    const written = await writeNativeModel(onnxPath, format, partial);
    if (existsSync(dir) && !shared) await rmdir(dir);
    try {
      await rename(partial, dir);
    } catch (err) {
      if (!(shared && existsSync(join(dir, EXPORT_META_FILE)))) throw err;
    }
    return { ...written, dir, file: join(dir, NATIVE_FILE[format]) };
  } finally {
    await rm(partial, { recursive: true, force: true });
    tracked.done();
  }
}

/** `format` of the ONNX graph at `onnxPath`, from the cache or written now (writeModelFolder). */
export async function ensureNativeExport(onnxPath: string, format: NativeFormat, cacheRoot?: string): Promise<NativeExport> {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ v: NATIVE_EXPORTER_VERSION, format }));
  await fileHash(onnxPath, hash);
  if (existsSync(`${onnxPath}_data`)) await fileHash(`${onnxPath}_data`, hash);
  const dir = join(nativeCacheRoot(cacheRoot), hash.digest('hex'));
  const metaPath = join(dir, EXPORT_META_FILE);
  if (existsSync(metaPath)) {
    const meta = JSON.parse(await readFile(metaPath, 'utf8')) as ExportMeta;
    return { format, dir, file: join(dir, NATIVE_FILE[format]), source: onnxPath, nodes: meta.nodes, notes: meta.notes, fromCache: true };
  }
  await mkdir(nativeCacheRoot(cacheRoot), { recursive: true });
  return { ...(await writeModelFolder(onnxPath, format, dir, true)), fromCache: false };
}
