import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { parquetWriteFile } from 'hyparquet-writer';
import { openDataset } from '../../datasets/open-dataset.js';
import { collect, embeddedRows, fixture } from '../helpers/dataset-files.js';
import { testOutputDir } from '../helpers/test-cache.js';

test('local Parquet files stream their rows: snappy, zstd and gzip from pyarrow, datasets.to_parquet and hyparquet-writer', async () => {
  const expected = embeddedRows(120);
  for (const name of ['pyarrow-snappy.parquet', 'pyarrow-zstd.parquet', 'pyarrow-gzip.parquet', 'datasets-to-parquet.parquet']) {
    const dataset = await openDataset(fixture(name));
    assert.deepEqual(await dataset.columns(), ['text', 'label', 'source'], name);
    assert.deepEqual(await collect(dataset), expected, `${name}: every row, int64 labels as numbers, across three row groups`);
  }

  const written = join(testOutputDir('parquet-writer'), 'hyparquet.parquet');
  parquetWriteFile({
    filename: written,
    columnData: [
      { name: 'sentence', data: expected.map((r) => String(r['text'])), type: 'STRING' },
      { name: 'label', data: expected.map((r) => BigInt(r['label'] as number)), type: 'INT64' },
    ],
    rowGroupSize: 32,
  });
  const fromWriter = await openDataset(written);
  assert.deepEqual(await fromWriter.columns(), ['sentence', 'label']);
  assert.deepEqual(await collect(fromWriter), expected.map((r) => ({ sentence: r['text'], label: r['label'] })));
});

test('a folder of Parquet shards is one dataset, and split-named shards select the split', async () => {
  const dir = testOutputDir('parquet-shards');
  await copyFile(fixture('pyarrow-snappy.parquet'), join(dir, 'part-0.parquet'));
  await copyFile(fixture('pyarrow-gzip.parquet'), join(dir, 'part-1.parquet'));
  assert.equal((await collect(await openDataset(dir))).length, 240);

  const hubLayout = join(testOutputDir('parquet-splits'), 'data');
  await mkdir(hubLayout, { recursive: true });
  await copyFile(fixture('pyarrow-snappy.parquet'), join(hubLayout, 'train-00000-of-00002.parquet'));
  await copyFile(fixture('pyarrow-zstd.parquet'), join(hubLayout, 'train-00001-of-00002.parquet'));
  await copyFile(fixture('pyarrow-gzip.parquet'), join(hubLayout, 'test-00000-of-00001.parquet'));
  assert.equal((await collect(await openDataset(hubLayout))).length, 240, 'train by default');
  assert.equal((await collect(await openDataset(hubLayout, { split: 'test' }))).length, 120);
  await assert.rejects(openDataset(hubLayout, { split: 'dev' }), /has no split "dev"; its splits are: "test", "train"/u);
  await assert.rejects(openDataset(fixture('pyarrow-snappy.parquet'), { split: 'test' }), /has no splits/u);
  await assert.rejects(openDataset(fixture('pyarrow-snappy.parquet'), { config: 'default' }), /not a Hugging Face Hub dataset/u);
});
