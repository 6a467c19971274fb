import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import { CharModel } from '../helpers/char-model.js';
import { loggedEngines } from '../helpers/logged-engines.js';
import { memoryDataset } from '../helpers/memory-dataset.js';

test('a pass whose last batch ends past the time limit still counts as whole: the limit is checked before a batch starts', async () => {
  // 4 rows at 300 ms each: a 1200 ms pass. One round of 2350 ms: the warm pass takes 1200 ms, the timed pass's last
  // batch starts at about 2100 ms (250 ms before the limit, room for a loaded machine's timer lag) and ends at 2400 ms
  // or later, always past the limit.
  const { registry } = loggedEngines([{ id: 'e', msPerItem: 300 }]);
  const bench = new Benchmark({ dataset: memoryDataset(4), batchSizes: [1], rounds: 1, registry, parity: { reference: null }, stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: 2350 } });
  const [cell] = await bench.run(new CharModel(), ['e']);
  assert.ok(cell?.state === 'completed');
  assert.deepEqual(cell.firstPass && [cell.firstPass.batches, cell.firstPass.items], [4, 4]);
  assert.equal(cell.rounds?.[0]?.passes, 1);
  assert.equal(cell.samples.runMs.length, 4);
  const reasons = cell.verdict?.reasons.join('; ') ?? '';
  assert.doesNotMatch(reasons, /warm pass cut|of one pass/);
});
