import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { RecordBatch } from 'apache-arrow/Arrow.dom';
import { UserError } from '../src/core/errors.js';
import type { DataRow } from './dataset.js';
import { rowsOfBatches } from './row-batches.js';
import { plainValue } from './row-values.js';

/** Magic bytes that open an Arrow IPC *file* (Feather v2); a *stream* (what `datasets` writes) has none. */
const FILE_MAGIC = 'ARROW1';

async function isIpcFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(FILE_MAGIC.length);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return bytesRead === FILE_MAGIC.length && head.toString('latin1') === FILE_MAGIC;
  } finally {
    await handle.close();
  }
}

/** Yields the chunks of a file and counts the bytes handed on, so an error can say how far the reader got. */
async function* countedChunks(path: string, progress: { bytes: number }): AsyncGenerator<Uint8Array> {
  const stream = createReadStream(path);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      progress.bytes += chunk.byteLength;
      yield chunk;
    }
  } finally {
    stream.destroy();
  }
}

interface OpenedReader {
  readonly reader: AsyncIterable<RecordBatch> & { readonly schema: { fields: { name: string }[] }; cancel?: () => unknown };
  /** Byte offset reached so far, for error messages. */
  readonly offset: () => number;
  close(): Promise<void>;
}

/**
 * Opens an IPC file through a file handle (random access: batches are read
 * one at a time, the footer from the end) and an IPC stream sequentially.
 * Either way one record batch is in memory at a time.
 */
async function openReader(path: string): Promise<OpenedReader> {
  // apache-arrow loads with the first Arrow dataset: a CLI start that reads none (most runs) saves about 0.25 s of CPU.
  const { RecordBatchReader } = (await import('../src/core/arrow-require.cjs')).default;
  if (await isIpcFile(path)) {
    const handle: FileHandle = await open(path, 'r');
    try {
      const reader = await RecordBatchReader.from(handle);
      await reader.open();
      return { reader: reader as unknown as OpenedReader['reader'], offset: () => NaN, close: () => handle.close().catch(() => undefined) };
    } catch (err) {
      await handle.close().catch(() => undefined);
      const { size } = await stat(path);
      throw corrupt(path, `footer near byte offset ${Math.max(0, size - 10)} of ${size}`, err);
    }
  }
  const progress = { bytes: 0 };
  const chunks = countedChunks(path, progress);
  const close = async (): Promise<void> => {
    await chunks.return(undefined).catch(() => undefined);
  };
  try {
    const reader = await RecordBatchReader.from(chunks);
    await reader.open();
    return { reader: reader as unknown as OpenedReader['reader'], offset: () => progress.bytes, close };
  } catch (err) {
    await close();
    throw corrupt(path, `byte offset ${progress.bytes}`, err);
  }
}

function corrupt(path: string, where: string, err: unknown): UserError {
  const detail = err instanceof Error ? err.message : String(err);
  return new UserError(
    `${path}: not a readable Arrow IPC file or stream (corrupt or truncated at ${where}): ${detail}`,
    'The file is damaged or was cut short. Write it again (e.g. datasets save_to_disk, or pyarrow.ipc).',
  );
}

/** Column names of an Arrow IPC file or stream, from its schema message. */
export async function readArrowColumns(path: string): Promise<string[]> {
  const opened = await openReader(path);
  try {
    return opened.reader.schema.fields.map((f) => f.name);
  } finally {
    await opened.close();
  }
}

/**
 * Streams the rows of an Arrow IPC file or stream (including the
 * `data-0000N-of-0000M.arrow` shards `datasets` writes) one record batch at a
 * time. Values become plain JSON-like ones (int64 → number). A truncated or
 * corrupt file is reported with its path and how far reading got.
 */
export function readArrowRows(path: string): AsyncIterable<DataRow> {
  return rowsOfBatches(() => readArrowBatches(path));
}

/** The rows of an Arrow IPC file or stream, one array per record batch; see readArrowRows. */
export async function* readArrowBatches(path: string): AsyncGenerator<DataRow[]> {
  const opened = await openReader(path);
  let rows = 0;
  let batches = 0;
  try {
    const iterator = opened.reader[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<RecordBatch>;
      try {
        next = await iterator.next();
      } catch (err) {
        const offset = opened.offset();
        const where = Number.isNaN(offset) ? `record batch ${batches}` : `byte offset ${offset}, after record batch ${batches - 1}`;
        throw corrupt(path, `${where}; ${rows} rows were read before it`, err);
      }
      if (next.done === true) return;
      const batch = next.value;
      batches++;
      const names = batch.schema.fields.map((f) => f.name);
      const columns = names.map((name) => batch.getChild(name));
      const out: DataRow[] = new Array(batch.numRows);
      for (let i = 0; i < batch.numRows; i++) {
        const row: Record<string, unknown> = {};
        for (let c = 0; c < names.length; c++) {
          const value = columns[c]?.get(i);
          row[names[c] as string] = typeof value === 'string' || typeof value === 'number' || value === null ? value : plainValue(value);
        }
        out[i] = row;
      }
      rows += batch.numRows;
      yield out;
    }
  } finally {
    await opened.close();
  }
}
