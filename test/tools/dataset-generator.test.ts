import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { test } from 'node:test';
import { embeddedDatasetPath } from '../../datasets/open-dataset.js';
import { generateRows, lengthStats, serializeRows } from '../../tools/generate-default-dataset.js';

test('the generator reproduces the committed embedded dataset byte for byte', () => {
  const rows = generateRows();
  assert.equal(serializeRows(rows), readFileSync(embeddedDatasetPath(), 'utf8'), 'regenerate with node dist/tools/generate-default-dataset.js');
  assert.ok(statSync(embeddedDatasetPath()).size < 1_000_000, 'under 1 MB');

  const stats = lengthStats(rows);
  assert.equal(stats['positive'], rows.length / 2, 'balanced labels');
  assert.equal(new Set(rows.map((r) => r.text)).size, rows.length, 'unique texts');
  assert.ok((stats['medianWords'] ?? 0) >= 8 && (stats['medianWords'] ?? 0) <= 16, 'review-like median length');
  assert.ok((stats['maxWords'] ?? 0) >= 50, 'a tail of long reviews');
  assert.notDeepEqual(generateRows(7, 50), generateRows(8, 50), 'the seed matters');
});
