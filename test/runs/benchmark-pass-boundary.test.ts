import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import { CharModel } from '../helpers/char-model.js';
import { loggedEngines } from '../helpers/logged-engines.js';
import { memoryDataset } from '../helpers/memory-dataset.js';

test('a pass whose last batch ends past the time limit still counts as whole: the limit is checked before a batch starts', async () => {
  // 4 rows at 100 ms each: a 400 ms pass. One round of 800 ms: the warm pass may take 400 ms, the timed passes the rest.
  const { registry } = loggedEngines([{ id: 'e', msPerItem: 100 }]);
  const bench = new Benchmark({ dataset: memoryDataset(4), batchSizes: [1], rounds: 1, registry, parity: { reference: null }, stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: 800 } });
  const [cell] = await bench.run(new CharModel(), ['e']);
  assert.ok(cell?.state === 'completed');
  assert.deepEqual(cell.firstPass && [cell.firstPass.batches, cell.firstPass.items], [4, 4]);
  assert.equal(cell.rounds?.[0]?.passes, 1);
  assert.equal(cell.samples.runMs.length, 4);
  const reasons = cell.verdict?.reasons.join('; ') ?? '';
  assert.doesNotMatch(reasons, /warm pass cut|of one pass/);
});
