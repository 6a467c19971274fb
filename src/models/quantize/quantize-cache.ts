/**
 * Variants inferbench writes for a user's export live in its cache, never in
 * the user's folder: `<cache>/quantized/<sha256>/`, where the hash covers the
 * source graph's bytes (and its external data), the dtype, the writer's
 * version and, for static quantization, the calibration rows and method. The
 * folder is a model folder of its own (config and tokenizer files copied,
 * `onnx/model<suffix>.onnx`), so every engine, transformers.js included,
 * loads it like the original. quantize.json is written last, with the
 * graph's size and sha256: its presence means the variant is complete, and
 * a graph that no longer matches it (cut short) is written again.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { sha256OfFile } from '../../core/regular-file.js';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hasSentenceTransformersFiles, readSentenceTransformersFolder } from '../sentence-transformers-folder.js';
import { cacheFolder } from '../../core/cache-root.js';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { dtypeOnnxFile } from '../../core/dtypes.js';
import type { Engine } from '../../core/engine.js';
import type { TensorMap } from '../../core/tensor.js';
import { defaultCacheRoot } from '../../core/cache-root.js';
import { calibrateRanges } from './calibrate.js';
import type { CalibrationMethod } from './calibration-methods.js';
import { GraphIndex } from './graph-index.js';
import { linearOps } from './matmul-weights.js';
import { decodeOnnxFile, writeOnnxModel, type ModelWriteFs } from '../../core/onnx/onnx-file.js';
import { VariantRefused, writeVariantGraph } from './variant-writers.js';
import type { WritableDtype } from './writable-dtypes.js';

/** Bumped whenever a writer's output changes, so old cache entries are not reused. */
export const QUANTIZER_VERSION = 3;

/** What static quantization calibrates on. */
export interface CalibrationSource {
  /** Model inputs of the calibration rows, in batches. */
  readonly batches: readonly TensorMap[];
  /** Rows in all (recorded with the run). */
  readonly rows: number;
  readonly method: CalibrationMethod;
  /** Hash of the calibration texts, so other rows make another cache entry. */
  readonly rowsHash: string;
  /** onnx-cpu: runs the fp32 graph to collect activations. */
  readonly engine: Engine;
}

export interface QuantizeRequest {
  /** Model folder holding `onnx/model.onnx`. */
  readonly sourceDir: string;
  readonly dtype: WritableDtype;
  /** Cache root; default `defaultCacheRoot()`. */
  readonly cacheRoot?: string;
  readonly calibration?: CalibrationSource;
  /** Tests inject a failing file system (ENOSPC). */
  readonly fs?: ModelWriteFs;
  /** Tests force external data with a low threshold. */
  readonly externalDataAbove?: number;
}

/** A variant ready in the cache, or why there is none. */
export type QuantizeOutcome =
  | {
    readonly dir: string; readonly file: string; readonly method: string; readonly fromCache: boolean; readonly calibration: { rows: number; method: CalibrationMethod } | null;
    /** Why the cached variant could not be used and was written again (truncated graph, corrupt quantize.json). */
    readonly rebuilt?: string;
  }
  | { readonly skip: string };

/** quantize.json: how the variant was made, and the sizes and sha256 of what was written, checked on every reuse. */
interface VariantMeta {
  readonly method: string;
  readonly calibration: { rows: number; method: CalibrationMethod } | null;
  readonly graphBytes: number;
  readonly graphSha256: string;
  /** Bytes of `<file>_data` when the weights went to external data, else null. */
  readonly dataBytes: number | null;
}

const sizeOf = (path: string): Promise<number | null> => stat(path).then((s) => (s.isFile() ? s.size : null), () => null);

/**
 * The cached variant's record, when the files on disk are the ones it
 * describes; `{ stale }` with the reason when they are not (a graph cut
 * short, a quantize.json that is not JSON or comes from before sizes were
 * recorded); null when nothing is cached. quantize.json is written last, so
 * a complete one vouches for the graph's bytes.
 */
async function cachedVariant(target: string, metaPath: string): Promise<{ meta: VariantMeta } | { stale: string } | null> {
  if (!existsSync(metaPath)) return existsSync(target) ? { stale: 'it has no quantize.json (its writing was cut short)' } : null;
  let meta: Partial<VariantMeta>;
  try {
    meta = JSON.parse(await readFile(metaPath, 'utf8')) as Partial<VariantMeta>;
  } catch {
    return { stale: `${metaPath} is not valid JSON` };
  }
  if (typeof meta?.graphSha256 !== 'string' || typeof meta.graphBytes !== 'number' || typeof meta.method !== 'string') return { stale: `${metaPath} does not record the graph's size and sha256` };
  const bytes = await sizeOf(target);
  if (bytes !== meta.graphBytes) return { stale: `the cached graph ${target} has ${bytes ?? 0} of its ${meta.graphBytes} bytes` };
  if (meta.dataBytes != null && (await sizeOf(`${target}_data`)) !== meta.dataBytes) return { stale: `the cached graph's external data ${target}_data is not the size written` };
  if ((await sha256OfFile(target)) !== meta.graphSha256) return { stale: `the cached graph ${target} does not match the sha256 written` };
  return { meta: meta as VariantMeta };
}

/** The cache key of a request: source bytes, dtype, writer version, calibration. */
async function cacheKey(source: string, req: QuantizeRequest): Promise<string> {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ v: QUANTIZER_VERSION, dtype: req.dtype, calibration: req.calibration ? { rows: req.calibration.rows, method: req.calibration.method, texts: req.calibration.rowsHash } : null }));
  hash.update(await sha256OfFile(source));
  // The sentence-transformers files travel with the variant (copyModelFiles): a changed pooling is a new variant, never an old one's.
  for (const file of sentenceTransformersFilesOf(req.sourceDir)) hash.update(`${file}\0${await readFile(join(req.sourceDir, file), 'utf8')}\0`);
  const data = `${source}_data`;
  if (existsSync(data)) hash.update(await sha256OfFile(data));
  return hash.digest('hex');
}

/** The sentence-transformers files below a folder's top level (module folders), read and checked; none for a folder without them. */
function sentenceTransformersFilesOf(dir: string): readonly string[] {
  return hasSentenceTransformersFiles(dir) ? readSentenceTransformersFolder(dir).moduleFiles : [];
}

/**
 * Copies the folder's small top-level files (config, tokenizer,
 * modules.json) and its sentence-transformers module folders (1_Pooling/,
 * 2_Normalize/), so a cache folder or an export is a model folder that
 * pools as its source. A malformed sentence-transformers folder is refused
 * (UserError) before anything is copied.
 */
export async function copyModelFiles(from: string, to: string): Promise<void> {
  const st = hasSentenceTransformersFiles(from) ? readSentenceTransformersFolder(from) : null;
  const copyOne = async (name: string): Promise<void> => {
    const temp = join(to, `${name}.partial-${randomBytes(4).toString('hex')}`);
    await copyFile(join(from, name), temp);
    await rename(temp, join(to, name));
  };
  for (const name of await readdir(from)) {
    // stat follows links: a Hub snapshot's files are links into its blobs.
    const info = await stat(join(from, name)).catch(() => null);
    if (!info?.isFile() || info.size > 64 * 1024 * 1024) continue;
    await copyOne(name);
  }
  if (st === null) return;
  for (const folder of st.moduleFolders) await mkdir(join(to, folder), { recursive: true });
  for (const file of st.moduleFiles) {
    await mkdir(join(to, dirname(file)), { recursive: true });
    await copyOne(file);
  }
}

/** Folder of the quantized variants: `<cache root>/quantized`. */
export function quantizedCacheRoot(root = defaultCacheRoot()): string {
  return join(root, 'quantized');
}

/**
 * The variant `req.dtype` of the model in `req.sourceDir`, from the cache or
 * written now. A source that is not fp32, or holds nothing to quantize,
 * gives `{ skip }` with the reason.
 */
export async function ensureQuantizedVariant(req: QuantizeRequest): Promise<QuantizeOutcome> {
  const fp32File = dtypeOnnxFile('fp32');
  const source = join(req.sourceDir, fp32File);
  if (!existsSync(source)) return { skip: `${fp32File} not found in ${req.sourceDir}: nothing to quantize from` };
  const file = dtypeOnnxFile(req.dtype);
  const dir = join(quantizedCacheRoot(req.cacheRoot), await cacheKey(source, req));
  const target = join(dir, file);
  const metaPath = join(dir, 'quantize.json');
  const cached = await cachedVariant(target, metaPath);
  if (cached && 'meta' in cached) return { dir, file, method: cached.meta.method, fromCache: true, calibration: cached.meta.calibration };
  // A damaged entry is the cache's own problem, not the user's model: it is written again, and the row says so.
  if (cached) await rm(dir, { recursive: true, force: true });
  const decoded = await decodeOnnxFile(source);
  let calibration: { rows: number; method: CalibrationMethod } | null = null;
  let method: string;
  try {
    if (req.dtype === 'q8-static') {
      if (!req.calibration) throw new Error('q8-static needs calibration rows');
      const activations = [...new Set(linearOps(new GraphIndex(decoded.model)).map((op) => op.activation))];
      if (activations.length === 0) throw new VariantRefused('nothing to quantize: the graph has no MatMul or Gemm with a constant float32 weight');
      await cacheFolder(dir);
      const { ranges, rows } = await calibrateRanges(decoded, activations, req.calibration.batches, req.calibration.engine, req.calibration.method, join(dir, `calibration-${randomBytes(4).toString('hex')}.onnx`));
      calibration = { rows, method: req.calibration.method };
      method = writeVariantGraph(decoded, 'q8-static', { ranges, description: `${rows} rows (${req.calibration.method})` });
    } else {
      method = writeVariantGraph(decoded, req.dtype);
    }
  } catch (err) {
    if (err instanceof VariantRefused) return { skip: err.message };
    throw err;
  }
  await cacheFolder(dir, 'onnx');
  await copyModelFiles(req.sourceDir, dir);
  await writeOnnxModel(decoded.model, target, decoded.dir, { ...(req.fs ? { fs: req.fs } : {}), ...(req.externalDataAbove !== undefined ? { externalDataAbove: req.externalDataAbove } : {}) });
  const meta: VariantMeta & Record<string, unknown> = {
    source, dtype: req.dtype, method, calibration, quantizerVersion: QUANTIZER_VERSION, writtenAt: new Date().toISOString(),
    graphBytes: (await sizeOf(target)) ?? 0, graphSha256: await sha256OfFile(target), dataBytes: await sizeOf(`${target}_data`),
  };
  // Last, under a temporary name renamed into place: its presence means the variant is complete.
  const temp = `${metaPath}.partial-${randomBytes(4).toString('hex')}`;
  await writeFile(temp, `${JSON.stringify(meta, null, 2)}\n`);
  await rename(temp, metaPath);
  return { dir, file, method, fromCache: false, calibration, ...(cached ? { rebuilt: cached.stale } : {}) };
}
