import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import { Dataset } from '../../datasets/dataset.js';
import { CharModel } from '../helpers/char-model.js';
import { loggedEngines } from '../helpers/logged-engines.js';

/** 10 rows without a label column. */
const unlabelled = new Dataset(
  'unlabelled',
  async function* () {
    for (let i = 0; i < 10; i++) yield { text: `row ${i} ${'x'.repeat(i)}` };
  },
  async () => ['text'],
);

test('every round warms every row untimed first, times only whole passes after it, and parity uses the warm pass even without labels', async () => {
  const { registry, engines } = loggedEngines([{ id: 'ref' }, { id: 'other' }]);
  const bench = new Benchmark({ dataset: unlabelled, batchSizes: [4], rounds: 2, warmupBatches: 0, registry, parity: { reference: 'ref' }, stop: { minTimeMs: 0, minBatches: 5 } });
  const cells = await bench.run(new CharModel(), ['ref', 'other']);
  const other = cells.find((c) => c.engine === 'other');
  assert.ok(other?.state === 'completed');
  // 10 rows at batch 4: a pass is 4 + 4 + 2. The warm pass runs it once; the minimum of 3 batches a round (5 / 2 rounds) takes one whole pass.
  assert.deepEqual(other.firstPass && [other.firstPass.batches, other.firstPass.items], [3, 10]);
  assert.equal(other.warmupBatches, 3);
  assert.ok(Math.abs((other.firstPass?.ms ?? 0) - (other.samples.warmupMs ?? []).reduce((a, b) => a + b, 0)) < 1e-9);
  assert.equal(other.rounds?.[0]?.firstPassMs, other.firstPass?.ms);
  assert.deepEqual(other.rounds?.map((r) => r.items), [[4, 4, 2], [4, 4, 2]], 'timed batches are whole passes, the short last batch included');
  assert.deepEqual(other.rounds?.map((r) => r.passes), [1, 1]);
  assert.equal(other.itemsTotal, 20);
  // Each round: 3 warm-pass runs, then 3 timed ones, in that order.
  assert.deepEqual(engines[1]?.log.batchSizesSeen, [4, 4, 2, 4, 4, 2, 4, 4, 2, 4, 4, 2]);
  assert.ok(other.parity, 'parity is computed on an unlabelled dataset');
  assert.equal(other.parity.rows, 10);
  assert.equal(other.parity.withinTolerance, true);
  assert.equal(other.accuracy, null);
});
