import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { test } from 'node:test';
import { resolveColumns } from '../../datasets/columns.js';
import { EMBEDDED_DATASET_NAME, embeddedDatasetPath, embeddedTexts, openDataset } from '../../datasets/open-dataset.js';

test('the embedded dataset opens with text and label columns, thousands of rows and both labels', async () => {
  const path = embeddedDatasetPath();
  assert.ok(isAbsolute(path) && existsSync(path), `embedded file at ${path}`);

  const dataset = await openDataset();
  assert.equal(dataset.name, EMBEDDED_DATASET_NAME);
  const columns = await dataset.columns();
  assert.deepEqual(resolveColumns(columns), { text: 'text', label: 'label' });

  const labels = new Map<unknown, number>();
  let rows = 0;
  const streamed: string[] = [];
  for await (const row of dataset) {
    rows++;
    streamed.push(String(row['text']));
    assert.equal(typeof row['text'], 'string');
    assert.ok(row['source'] === 'review' || row['source'] === 'tweet');
    labels.set(row['label'], (labels.get(row['label']) ?? 0) + 1);
  }
  assert.ok(rows >= 2000, `${rows} rows`);
  assert.deepEqual([...labels.keys()].sort(), [0, 1]);

  // embeddedTexts reads the file whole (the default model's vocabulary): the same texts, in the same order, as the stream.
  const texts = await embeddedTexts();
  assert.equal(texts.length, rows);
  assert.deepEqual(texts, streamed);
  assert.equal((await openDataset(EMBEDDED_DATASET_NAME)).name, EMBEDDED_DATASET_NAME);
});
