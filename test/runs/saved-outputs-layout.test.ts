import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { SavedOutputs, nothingSavedReason } from '../../src/scenarios/classify/saved-outputs.js';
import type { RowOutputs } from '../../src/core/parity.js';
import { memoryDataset } from '../helpers/memory-dataset.js';
import { testOutputDir } from '../helpers/test-cache.js';

function outputs(rows: number, width: number): RowOutputs {
  return { names: ['sentence_embedding'], rows: Array.from({ length: rows }, (_, r) => [Array.from({ length: width }, (_, i) => r + i / 10)]) };
}

test('a save that splits outputs per model removes the outputs.parquet of the earlier layout, and lists only what it wrote', async () => {
  const dir = testOutputDir('saved-outputs-layout');
  const saved = new SavedOutputs(memoryDataset(3), { text: 'text', label: 'label' });
  saved.add({ model: 'embed', engine: 'onnx-cpu', batchSize: 1, requestedThreads: null }, 'reference', outputs(3, 4));
  assert.deepEqual((await saved.write(dir)).map((p) => p.slice(dir.length + 1)), ['outputs.parquet']);
  // The run saves after every cell: a second model with other vectors joins, and the layout changes.
  saved.add({ model: 'classifier', engine: 'onnx-cpu', batchSize: 1, requestedThreads: null }, 'reference', outputs(3, 2));
  const second = (await saved.write(dir)).map((p) => p.slice(dir.length + 1));
  assert.deepEqual(second, ['outputs-embed.parquet', 'outputs-classifier.parquet']);
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('outputs')).sort(), [...second].sort());
  assert.deepEqual(readdirSync(dir).filter((f) => f.includes('.tmp') || f.includes('partial')), [], 'no temporary left');
});

test('--save-outputs that keeps nothing says why: --reference none, or no reference cell completed', () => {
  const empty = new SavedOutputs(memoryDataset(1), { text: 'text', label: 'label' });
  assert.match(nothingSavedReason(empty, null) ?? '', /--reference none turns parity off; name a --reference engine/);
  assert.match(nothingSavedReason(empty, 'onnx-cpu') ?? '', /no cell of the reference engine onnx-cpu completed/);
  assert.equal(nothingSavedReason(null, null), null);
});
