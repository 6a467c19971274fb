import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { parquetMetadata } from 'hyparquet';
import { openDataset } from '../../datasets/open-dataset.js';
import { UserError } from '../../src/core/errors.js';
import { collect, fixture } from '../helpers/dataset-files.js';
import { testOutputDir } from '../helpers/test-cache.js';

function userError(path: string, check: RegExp): (err: unknown) => boolean {
  return (err) => {
    assert.ok(err instanceof UserError, String(err));
    assert.ok(err.message.startsWith(path), `names the file: ${err.message}`);
    assert.match(err.message, check);
    assert.ok(err.fix);
    return true;
  };
}

/** Opens and reads every row, so the error may come from either step. */
async function readAll(path: string): Promise<void> {
  const dataset = await openDataset(path);
  await dataset.columns();
  await collect(dataset);
}

test('a truncated or corrupt Parquet file gets an error naming the file and the byte offset', async () => {
  const dir = testOutputDir('corrupt-parquet');
  const bytes = await readFile(fixture('pyarrow-snappy.parquet'));

  const truncated = join(dir, 'truncated.parquet');
  await writeFile(truncated, bytes.subarray(0, 5000));
  await assert.rejects(readAll(truncated), userError(truncated, /not a readable Parquet file \(footer at byte offset 4992 of 5000\)/u));

  const tiny = join(dir, 'tiny.parquet');
  await writeFile(tiny, 'PAR1');
  await assert.rejects(readAll(tiny), userError(tiny, /byte offset 0 of 4.*too short/u));

  // Overwrite the middle of the second row group's data: the footer is intact, the pages are not.
  const metadata = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const column = metadata.row_groups[1]?.columns[0]?.meta_data;
  assert.ok(column);
  const start = Number(column.dictionary_page_offset ?? column.data_page_offset);
  const damaged = Buffer.from(bytes);
  damaged.fill(0xff, start, start + 64);
  const corrupt = join(dir, 'corrupt.parquet');
  await writeFile(corrupt, damaged);
  const rows: unknown[] = [];
  await assert.rejects(
    (async () => {
      for await (const row of await openDataset(corrupt)) rows.push(row);
    })(),
    userError(corrupt, new RegExp(`corrupt or truncated Parquet data in row group 1 \\(byte offset ${start} to \\d+\\)`, 'u')),
  );
  assert.equal(rows.length, 50, 'the rows of the intact first group were read');
});

test('a truncated or corrupt Arrow file gets an error naming the file and the byte offset', async () => {
  const dir = testOutputDir('corrupt-arrow');
  const stream = await readFile(fixture('pyarrow-stream.arrow'));
  const cutStream = join(dir, 'cut-stream.arrow');
  await writeFile(cutStream, stream.subarray(0, 7000));
  await assert.rejects(readAll(cutStream), userError(cutStream, /corrupt or truncated at byte offset 7000, after record batch 0; 50 rows were read before it/u));

  const file = await readFile(fixture('pyarrow-file.arrow'));
  const cutFile = join(dir, 'cut-file.arrow');
  await writeFile(cutFile, file.subarray(0, 7000));
  await assert.rejects(readAll(cutFile), userError(cutFile, /not a readable Arrow IPC file or stream \(corrupt or truncated at footer near byte offset 6990 of 7000\)/u));

  const shards = join(dir, 'saved');
  const { cp } = await import('node:fs/promises');
  await cp(fixture('save-to-disk'), shards, { recursive: true });
  const second = join(shards, 'data-00001-of-00002.arrow');
  await writeFile(second, (await readFile(second)).subarray(0, 3000));
  await assert.rejects(readAll(shards), userError(second, /byte offset 3000/u));
});
