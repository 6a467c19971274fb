import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import type { RunRecord } from '../../src/core/results.js';
import { engineComparisons } from '../../reports/run-views.js';
import { CharModel } from '../helpers/char-model.js';
import { loggedEngines } from '../helpers/logged-engines.js';
import { memoryDataset } from '../helpers/memory-dataset.js';
import { buildSampleRun } from '../helpers/sample-run.js';

test('a cell that cannot finish one timed pass within --max-time is NOISY, says how much it saw, runs one round and is not ranked', async () => {
  // 40 rows at batch 1 and 50 ms a row: a pass takes 2000 ms; 3 rounds of 4500 ms / 3 = 1500 ms cannot hold a warm and
  // a timed pass. The fast engine's 40 rows take a few ms a pass, so its three rounds fit 1500 ms each on any loaded machine.
  const { registry, opens } = loggedEngines([{ id: 'fast' }, { id: 'slow', msPerItem: 50 }]);
  const bench = new Benchmark({ dataset: memoryDataset(40), limit: 40, batchSizes: [1], rounds: 3, registry, parity: { reference: 'fast' }, stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: 4500 } });
  const cells = await bench.run(new CharModel(), ['fast', 'slow']);
  const slow = cells.find((c) => c.engine === 'slow');
  assert.ok(slow?.state === 'completed');
  assert.equal(slow.verdict?.status, 'NOISY');
  assert.match(slow.verdict?.reasons.join('; ') ?? '', /saw \d+ of 40 batches of one pass/);
  assert.ok(slow.samples.runMs.length < 40);
  assert.equal(slow.rounds?.length, 1, 'more rounds would only repeat the same partial pass');
  assert.equal(opens.filter((l) => l === 'slow').length, 1);
  assert.equal(opens.filter((l) => l === 'fast').length, 3);

  const run: RunRecord = { ...buildSampleRun(), cells };
  const [comparison] = engineComparisons(run);
  assert.equal(comparison?.others.length, 0, 'no "× faster" between cells that saw different rows');
  assert.match(JSON.stringify(comparison?.notCompared), /slow.*saw \d+ of 40 batches of one pass/);
});
