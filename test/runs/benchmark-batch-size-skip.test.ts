import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import { CharModel } from '../helpers/char-model.js';
import { loggedEngines } from '../helpers/logged-engines.js';
import { memoryDataset } from '../helpers/memory-dataset.js';

test('a batch size larger than the rows is skipped with the fix, never reported as a batch it did not run', async () => {
  const { registry, engines } = loggedEngines([{ id: 'e' }]);
  const bench = new Benchmark({ dataset: memoryDataset(3), batchSizes: [2, 32], registry, stop: { minTimeMs: 0, minBatches: 1 } });
  const cells = await bench.run(new CharModel(), ['e']);
  assert.deepEqual(cells.map((c) => [c.batchSize, c.state]), [[2, 'completed'], [32, 'skipped']]);
  const skipped = cells[1];
  assert.equal(skipped?.state === 'skipped' ? skipped.reason : '', 'only 3 rows: batch 32 needs at least 32; lower --batch-sizes or raise --limit');
  assert.ok(!engines[0]?.log.batchSizesSeen.some((b) => b > 2), 'nothing ran at the skipped batch size');
  // At batch 2 the final batch of each pass is short: items count it, and it is one of the timed batches.
  const done = cells[0];
  assert.ok(done?.state === 'completed');
  assert.deepEqual(done.rounds?.[0]?.items, [2, 1]);
});
