import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import { CharModel } from '../helpers/char-model.js';
import { createMockEngine } from '../helpers/mock-engine.js';
import { memoryDataset } from '../helpers/memory-dataset.js';

test('execute warms every row untimed, then times whole passes in each round, warmup kept apart', async () => {
  const engine = createMockEngine();
  const model = new CharModel();
  let prepared = 0;
  const bench = new Benchmark({
    dataset: memoryDataset(20),
    limit: 20,
    batchSizes: [1, 8],
    warmupBatches: 5,
    rounds: 2,
    stop: { minTimeMs: 0, minBatches: 1 },
    dataItemProcessCallback: (rows, columns) => {
      prepared++;
      return model.prepareBatch(rows, columns);
    },
  });
  const cells = await bench.execute(engine.open('x.onnx', { threads: null, precision: 'fp32' }), { name: 'onnx' });
  assert.equal(cells.length, 2);
  const [b1, b8] = cells;
  assert.ok(b1?.state === 'completed' && b8?.state === 'completed');
  // One whole timed pass per round (minimums of 0 s and 1 batch hold after it), two rounds pooled.
  assert.equal(b1.samples.runMs.length, 40);
  assert.deepEqual(b8.samples.items, [8, 8, 4, 8, 8, 4]);
  assert.equal(b8.itemsTotal, 40);
  assert.deepEqual(b8.rounds?.map((r) => r.passes), [1, 1]);
  assert.ok(Math.abs(b8.totalMs - b8.samples.runMs.reduce((a, b) => a + b, 0)) < 1e-9);
  // The warm pass covers all 20 rows at batch 1; at batch 8 it holds 3 batches, so --warmup 5 adds 2.
  assert.equal(b1.warmupBatches, 20);
  assert.equal(b8.warmupBatches, 5);
  assert.deepEqual(b8.firstPass && [b8.firstPass.batches, b8.firstPass.items], [3, 20]);
  assert.ok(b1.coldStart && b1.coldStart.firstBatchMs >= 0);
  assert.ok(b1.memory && b1.memory.peakRssBytes >= b1.memory.baselineRssBytes);
  // Per round: 20 warm + 20 timed at batch 1, 5 untimed + 3 timed at batch 8.
  assert.equal(engine.log.runs, 2 * (20 + 20 + 5 + 3));
  assert.equal(prepared, 2 * (20 + 20 + 5 + 3));
  assert.equal(b1.prepare.count, 40);
});

test('execute without a way to build inputs says what to pass', async () => {
  const engine = createMockEngine();
  const bench = new Benchmark({ dataset: memoryDataset(4), batchSizes: [1] });
  await assert.rejects(bench.execute(engine.open('x', { threads: null, precision: 'fp32' }), { name: 'x' }), (err: Error & { fix?: string }) => {
    assert.match(err.message, /no way to build model inputs/);
    assert.match(err.fix ?? '', /dataItemProcessCallback/);
    return true;
  });
});
