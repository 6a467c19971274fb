import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../src/runs/benchmark.js';
import { CharModel } from './fixtures/char-model.js';
import { createMockEngine } from './fixtures/mock-engine.js';
import { memoryDataset } from './fixtures/memory-dataset.js';

test('execute streams every batch at each batch size and keeps warmup out of the samples', async () => {
  const engine = createMockEngine();
  const model = new CharModel();
  let prepared = 0;
  const bench = new Benchmark({
    dataset: memoryDataset(20),
    batchSizes: [1, 8],
    warmupBatches: 3,
    warmup: { maxBatches: 3 },
    stop: { minTimeMs: 0, minBatches: 1 },
    dataItemProcessCallback: (rows, columns) => {
      prepared++;
      return model.prepareBatch(rows, columns);
    },
  });
  const cells = await bench.execute(engine.load('x.onnx', { threads: null, precision: 'fp32' }), { name: 'onnx' });
  assert.equal(cells.length, 2);
  const [b1, b8] = cells;
  assert.ok(b1?.state === 'completed' && b8?.state === 'completed');
  assert.equal(b1.samples.runMs.length, 20);
  assert.deepEqual(b8.samples.items, [8, 8, 4]);
  assert.equal(b8.itemsTotal, 20);
  assert.ok(Math.abs(b8.totalMs - b8.samples.runMs.reduce((a, b) => a + b, 0)) < 1e-9);
  assert.equal(b1.warmupBatches, 3);
  assert.equal(b1.samples.warmupMs?.length, 3, 'warmup times are kept apart from the measured ones');
  assert.ok(b1.coldStart && b1.coldStart.firstBatchMs >= 0);
  assert.ok(b1.memory && b1.memory.peakRssBytes >= b1.memory.baselineRssBytes);
  // 20 + 3 batches at batch 1, 3 + 3 at batch 8
  assert.equal(engine.log.runs, 20 + 3 + 3 + 3);
  // item callback runs once per measured batch plus once for the warmup batch
  assert.equal(prepared, 21 + 4);
  assert.equal(b1.prepare.count, 20);
});

test('execute without a way to build inputs says what to pass', async () => {
  const engine = createMockEngine();
  const bench = new Benchmark({ dataset: memoryDataset(4), batchSizes: [1] });
  await assert.rejects(bench.execute(engine.load('x', { threads: null, precision: 'fp32' }), { name: 'x' }), (err: Error & { fix?: string }) => {
    assert.match(err.message, /no way to build model inputs/);
    assert.match(err.fix ?? '', /dataItemProcessCallback/);
    return true;
  });
});
