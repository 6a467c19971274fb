import type { AsyncBuffer, ColumnData, Compressors, FileMetaData, RowGroup } from 'hyparquet';
import { UserError } from '../src/core/errors.js';
import type { DataRow } from './dataset.js';
import { rowsOfBatches, type RowBatch } from './row-batches.js';

/**
 * Decompressors for every Parquet codec (gzip, zstd, brotli, lz4…), snappy
 * included: hyparquet-compressors' WebAssembly snappy read the benchmark file
 * faster than hyparquet's built-in JavaScript one at the same peak RSS
 * (`npm run bench:datasets`, datasets/README.md).
 */
async function parquetCompressors(): Promise<Compressors> {
  return (await import('hyparquet-compressors')).compressors;
}

type Hyparquet = typeof import('hyparquet');

/**
 * hyparquet, loaded with the first Parquet file rather than at every CLI
 * start (with its decompressors about 0.15 s of CPU, which a run on a JSONL
 * dataset, or a command that reads no dataset, never needs).
 */
export function hyparquet(): Promise<Hyparquet> {
  return import('hyparquet');
}

/**
 * Rows decoded at once are bounded by bytes, not by row groups: a row group
 * may hold hundreds of megabytes of text, so a group larger than this
 * (uncompressed) is read in slices of about this size. Small slices keep
 * fewer rows alive at once, so the heap, and peak RSS, grow less; too small
 * and pages that straddle two slices are decoded twice. 4 MiB measured best
 * in `npm run bench:datasets` (datasets/README.md).
 */
export const SLICE_TARGET_BYTES = 4 * 1024 * 1024;

/** A Parquet file to stream: a local path or a remote file behind range requests. */
export interface ParquetSource {
  /** Path or URL, used in error messages. */
  readonly name: string;
  /** Opens the file's bytes for one pass. */
  open(): Promise<AsyncBuffer>;
  /** Bytes read from the end of the file for the footer; small for remote files so little is downloaded. */
  readonly footerFetchBytes?: number;
}

/** A local Parquet file. */
export function localParquetSource(path: string): ParquetSource {
  return { name: path, open: async () => (await hyparquet()).asyncBufferFromFile(path) };
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Reads and checks the footer; a truncated or foreign file gets one message with the file and offset. */
async function readMetadata(source: ParquetSource, file: AsyncBuffer): Promise<FileMetaData> {
  const size = file.byteLength;
  try {
    if (size < 12) throw new Error(`the file is only ${size} bytes, too short for a Parquet header and footer`);
    return await (await hyparquet()).parquetMetadataAsync(file, source.footerFetchBytes === undefined ? {} : { initialFetchSize: source.footerFetchBytes });
  } catch (err) {
    if (err instanceof UserError) throw err;
    throw new UserError(
      `${source.name}: not a readable Parquet file (footer at byte offset ${Math.max(0, size - 8)} of ${size}): ${message(err)}`,
      'The file is corrupt or was cut short (an interrupted download?). Download or write it again.',
    );
  }
}

/** First and last byte of a row group's column chunks, for error messages. */
function byteRange(group: RowGroup): { start: number; end: number } {
  let start = Infinity;
  let end = 0;
  for (const column of group.columns) {
    const meta = column.meta_data;
    if (!meta) continue;
    const first = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
    const from = Math.min(first, Number(meta.data_page_offset));
    start = Math.min(start, from);
    end = Math.max(end, from + Number(meta.total_compressed_size));
  }
  return { start: Number.isFinite(start) ? start : 0, end };
}

/** Top-level column names, in file order. */
function parquetColumnNames(metadata: FileMetaData, { parquetSchema }: Hyparquet): string[] {
  return parquetSchema(metadata).children.map((child) => child.element.name);
}

/** Column names of a Parquet file, from its footer only. */
export async function readParquetColumns(source: ParquetSource): Promise<string[]> {
  return parquetColumnNames(await readMetadata(source, await source.open()), await hyparquet());
}

/**
 * Remembers the byte ranges read for the current row group, so reading a
 * large group slice by slice fetches its column chunks once, not once per
 * slice. Cleared before the next group, so it holds one group's compressed
 * bytes at most.
 */
function groupCache(file: AsyncBuffer): AsyncBuffer & { clear(): void } {
  const slices = new Map<string, ArrayBuffer | Promise<ArrayBuffer>>();
  return {
    byteLength: file.byteLength,
    slice(start: number, end?: number) {
      const key = `${start}-${end ?? ''}`;
      let hit = slices.get(key);
      if (hit === undefined) {
        hit = Promise.resolve(file.slice(start, end));
        slices.set(key, hit);
      }
      return hit;
    },
    clear: () => slices.clear(),
  };
}

/**
 * Streams a Parquet file's rows one row group (or slice of a large group) at
 * a time, so memory holds one decoded slice however large the file is. Only
 * the footer and the groups actually reached are read: a consumer that stops
 * early (`take`) leaves the remaining groups unread and, for a remote file,
 * undownloaded. Corrupt data is reported with the file, the row group and its
 * byte offsets.
 */
export function readParquetRows(source: ParquetSource): AsyncIterable<DataRow> {
  return rowsOfBatches(() => readParquetBatches(source));
}

/**
 * Columns whose values need converting to plain ones: 64-bit integers
 * (bigint) and nested groups. Text and 32-bit columns, the usual case, are
 * passed through untouched, which keeps reading fast.
 */
function columnsToConvert(metadata: FileMetaData, { parquetSchema }: Hyparquet): string[] {
  return parquetSchema(metadata)
    .children.filter((child) => child.children.length > 0 || child.element.type === 'INT64' || child.element.type === 'INT96')
    .map((child) => child.element.name);
}

/**
 * One column's values for rows `[from, to)` from the chunks hyparquet
 * decoded (which may start before `from`). A single chunk that matches
 * exactly is used as is.
 */
function columnSlice(chunks: readonly ColumnData[], from: number, to: number): ArrayLike<unknown> {
  const only = chunks[0];
  if (chunks.length === 1 && only && only.rowStart === from && only.rowEnd === to) return only.columnData;
  const out: unknown[] = new Array(to - from).fill(null);
  for (const chunk of chunks) {
    const start = Math.max(chunk.rowStart, from);
    const end = Math.min(chunk.rowEnd, to);
    for (let row = start; row < end; row++) out[row - from] = chunk.columnData[row - chunk.rowStart];
  }
  return out;
}

/** The rows of a Parquet file as one batch per row group (or slice of a large group); see readParquetRows. */
export async function* readParquetBatches(source: ParquetSource): AsyncGenerator<RowBatch> {
  const opened = await source.open();
  const metadata = await readMetadata(source, opened);
  const file = groupCache(opened);
  const lib = await hyparquet();
  const compressors = await parquetCompressors();
  const names = parquetColumnNames(metadata, lib);
  const toConvert = new Set(columnsToConvert(metadata, lib));
  const convert = names.map((name) => toConvert.has(name));
  let groupStart = 0;
  for (let index = 0; index < metadata.row_groups.length; index++) {
    const group = metadata.row_groups[index] as RowGroup;
    const groupRows = Number(group.num_rows);
    const groupBytes = Number(group.total_byte_size);
    const sliceRows = groupBytes > SLICE_TARGET_BYTES ? Math.max(1, Math.floor((groupRows * SLICE_TARGET_BYTES) / groupBytes)) : groupRows;
    for (let sliceStart = 0; sliceStart < groupRows; sliceStart += sliceRows) {
      const from = groupStart + sliceStart;
      const to = groupStart + Math.min(groupRows, sliceStart + sliceRows);
      const pieces = new Map<string, ColumnData[]>();
      try {
        await lib.parquetRead({
          file,
          metadata,
          rowStart: from,
          rowEnd: to,
          compressors,
          onChunk: (chunk) => {
            const list = pieces.get(chunk.columnName);
            if (list) list.push(chunk);
            else pieces.set(chunk.columnName, [chunk]);
          },
        });
      } catch (err) {
        if (err instanceof UserError) throw err;
        const { start, end } = byteRange(group);
        throw new UserError(
          `${source.name}: corrupt or truncated Parquet data in row group ${index} (byte offset ${start} to ${end}): ${message(err)}`,
          'The file is damaged. Download or write it again; rows before this group were read.',
        );
      }
      yield {
        length: to - from,
        names,
        columns: names.map((name) => columnSlice(pieces.get(name) ?? [], from, to)),
        convert,
      };
    }
    file.clear();
    groupStart += groupRows;
  }
}
