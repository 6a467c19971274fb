/**
 * `--save-outputs`: the outputs behind a run's parity verdicts, written as
 * `outputs.parquet` in the run folder so a user can check quality offline
 * with their own tools. It holds the reference engine's cells and every
 * cell that failed parity: one row per input row of the cell's warm pass
 * (up to the parity row cap), with the row's index, a hash of its text and
 * the vector (a feature-extraction model's embedding, a classifier's logits)
 * as a fixed-size list of float32.
 */
import { createHash } from 'node:crypto';
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomically } from '../../../reports/write-run.js';
import type { RowOutputs } from '../../core/parity.js';
import type { CellKey } from '../../core/results.js';
import type { Dataset } from '../../../datasets/dataset.js';
import { textOf, type ResolvedColumns } from '../../../datasets/columns.js';

export const OUTPUTS_FILE = 'outputs.parquet';

/** Why a cell's outputs were kept. */
export type SavedReason = 'reference' | 'parity failed';

interface Entry {
  readonly key: CellKey;
  readonly reason: SavedReason;
  readonly outputs: RowOutputs;
}

/** The output kept per row: the embedding, else `logits`, else the first output. */
function vectorIndex(names: readonly string[]): number {
  for (const preferred of ['sentence_embedding', 'logits']) {
    const i = names.indexOf(preferred);
    if (i >= 0) return i;
  }
  return 0;
}

/** sha256 of a row's text (pairs: both sentences, joined by U+001F), hex, first 16 digits. */
export function rowTextHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export class SavedOutputs {
  private readonly entries: Entry[] = [];
  private hashes: Promise<string[]> | undefined;

  /** `dataset` as the cells stream it (calibration rows skipped, limit applied). */
  constructor(
    private readonly dataset: Dataset,
    private readonly columns: ResolvedColumns,
  ) {}

  add(key: CellKey, reason: SavedReason, outputs: RowOutputs): void {
    this.entries.push({ key, reason, outputs });
  }

  get size(): number {
    return this.entries.length;
  }

  private async textHashes(rows: number): Promise<string[]> {
    const out: string[] = [];
    const pair = this.columns.pair;
    for await (const batch of this.dataset.take(rows).batches(64)) {
      for (const row of batch) out.push(rowTextHash(pair ? `${textOf(row, this.columns.text)}\u001f${textOf(row, pair.second)}` : textOf(row, this.columns.text)));
    }
    return out;
  }

  /**
   * Writes the kept rows and returns the paths written (none when no cell was
   * kept): `<dir>/outputs.parquet`, or, when the run's models give vectors of
   * different lengths (an embedding model beside a classifier), one
   * `outputs-<model>.parquet` per model, because a fixed-size list has one
   * length per column.
   */
  async write(dir: string): Promise<string[]> {
    if (this.entries.length === 0) return [];
    const paths = await this.writeLayout(dir);
    await removeStaleLayout(dir, paths);
    return paths;
  }

  private async writeLayout(dir: string): Promise<string[]> {
    const most = Math.max(...this.entries.map((e) => e.outputs.rows.length));
    const hashes = await (this.hashes ??= this.textHashes(most));
    const widths = new Set(this.entries.flatMap((e) => e.outputs.rows.map((row) => (row[vectorIndex(e.outputs.names)] ?? []).length)));
    if (widths.size <= 1) return [await writeOutputsFile(join(dir, OUTPUTS_FILE), this.entries, hashes)];
    const byModel = new Map<string, Entry[]>();
    for (const e of this.entries) byModel.set(e.key.model, [...(byModel.get(e.key.model) ?? []), e]);
    const paths: string[] = [];
    const used = new Set<string>();
    for (const [model, entries] of byModel) {
      let file = outputsFileOf(model);
      for (let n = 2; used.has(file); n++) file = outputsFileOf(`${model}-${n}`);
      used.add(file);
      paths.push(await writeOutputsFile(join(dir, file), entries, hashes));
    }
    return paths;
  }
}

/**
 * Removes the outputs files of `dir` that this write did not produce: the
 * run saves after every cell, and a later save may change layout (one
 * outputs.parquet while one model had finished, one file per model once a
 * model with other vectors joined), so a file of the earlier layout would
 * otherwise stay beside the new ones, stale.
 */
async function removeStaleLayout(dir: string, written: readonly string[]): Promise<void> {
  const keep = new Set(written.map((p) => p.slice(dir.length + 1)));
  const stale = (await readdir(dir)).filter((f) => (f === OUTPUTS_FILE || /^outputs-.+\.parquet$/.test(f)) && !keep.has(f));
  for (const f of stale) await unlink(join(dir, f)).catch(() => undefined);
}

/** Why `--save-outputs` wrote nothing, for the run's warnings; null when it wrote a file or has nothing to explain. */
export function nothingSavedReason(saved: SavedOutputs | null, reference: string | null): string | null {
  if (saved === null || saved.size > 0) return null;
  return reference === null
    ? '--save-outputs wrote no outputs.parquet: it keeps the reference engine\'s outputs and those of cells that failed parity, and --reference none turns parity off; name a --reference engine (e.g. onnx-cpu) to save outputs'
    : `--save-outputs wrote no outputs.parquet: no cell of the reference engine ${reference} completed, and no cell failed parity`;
}

/** `outputs-<model>.parquet`, the model name kept to letters, digits, `.`, `_` and `-`. */
export function outputsFileOf(model: string): string {
  const slug = model.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
  return `outputs-${slug || 'model'}.parquet`;
}

/**
 * One Parquet file of `entries`, whose vectors all have one length. Parquet
 * has no fixed-size list, so the vector column is a LIST of FLOAT and the
 * file carries its Arrow schema (`ARROW:schema`, as pyarrow and arrow-rs
 * write it): readers that honour it (pyarrow, polars, DuckDB through Arrow)
 * get `fixed_size_list<float32>[width]`, one length checked for every row.
 */
async function writeOutputsFile(path: string, entries: readonly Entry[], hashes: readonly string[]): Promise<string> {
  const cols = { model: [] as string[], engine: [] as string[], batch_size: [] as bigint[], requested_threads: [] as (bigint | null)[], reason: [] as string[], row: [] as bigint[], text_sha256: [] as string[], output: [] as string[], vector: [] as number[][] };
  for (const e of entries) {
    const k = vectorIndex(e.outputs.names);
    const name = e.outputs.names[k] ?? '';
    e.outputs.rows.forEach((row, i) => {
      cols.model.push(e.key.model);
      cols.engine.push(e.key.engine);
      cols.batch_size.push(BigInt(e.key.batchSize));
      cols.requested_threads.push(e.key.requestedThreads === null ? null : BigInt(e.key.requestedThreads));
      cols.reason.push(e.reason);
      cols.row.push(BigInt(i));
      cols.text_sha256.push(hashes[i] ?? '');
      cols.output.push(name);
      cols.vector.push(Array.from(Float32Array.from(row[k] ?? [])));
    });
  }
  const width = cols.vector[0]?.length ?? 0;
  const str = (name: string) => ({ name, type: 'BYTE_ARRAY' as const, converted_type: 'UTF8' as const, repetition_type: 'REQUIRED' as const });
  const int = (name: string, optional = false) => ({ name, type: 'INT64' as const, repetition_type: optional ? ('OPTIONAL' as const) : ('REQUIRED' as const) });
  const schema = [
    { name: 'root', num_children: 9 },
    str('model'), str('engine'), int('batch_size'), int('requested_threads', true), str('reason'), int('row'), str('text_sha256'), str('output'),
    // Parquet's three-level list (LIST → repeated list → element), the form pyarrow writes a fixed_size_list in.
    { name: 'vector', repetition_type: 'REQUIRED' as const, converted_type: 'LIST' as const, num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED' as const, num_children: 1 },
    { name: 'element', type: 'FLOAT' as const, repetition_type: 'REQUIRED' as const },
  ];
  const { parquetWriteBuffer } = await (await import('../../../reports/parquet-report.js')).parquetWriter();
  const columnData = Object.entries(cols).map(([name, data]) => ({ name, data }));
  const kvMetadata = [{ key: 'ARROW:schema', value: await arrowSchemaBase64(width) }];
  await writeFileAtomically(path, new Uint8Array(parquetWriteBuffer({ schema, columnData, codec: 'SNAPPY', createdBy: 'inferbench', kvMetadata })));
  return path;
}

/**
 * The Arrow schema of an outputs file as Parquet's `ARROW:schema` metadata
 * holds it: base64 of the IPC schema message (continuation marker, length,
 * flatbuffer), which is how the vector column's fixed size reaches readers.
 */
export async function arrowSchemaBase64(width: number): Promise<string> {
  const { Field, FixedSizeList, Float32, Int64, Schema, Table, Utf8, tableToIPC } = (await import('../../core/arrow-require.cjs')).default;
  const text = (name: string) => new Field(name, new Utf8(), false);
  const schema = new Schema([
    text('model'), text('engine'), new Field('batch_size', new Int64(), false), new Field('requested_threads', new Int64(), true), text('reason'),
    new Field('row', new Int64(), false), text('text_sha256'), text('output'),
    new Field('vector', new FixedSizeList(width, new Field('element', new Float32(), false)), false),
  ]);
  // An empty table's IPC stream is the schema message then the end-of-stream marker (8 bytes); the metadata holds the message alone.
  const stream = tableToIPC(new Table(schema), 'stream');
  const length = new DataView(stream.buffer, stream.byteOffset + 4, 4).getInt32(0, true);
  return Buffer.from(stream.subarray(0, 8 + length)).toString('base64');
}
