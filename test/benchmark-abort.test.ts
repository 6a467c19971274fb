import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../src/runs/benchmark.js';
import { EngineRegistry } from '../src/core/engine-registry.js';
import { CharModel } from './fixtures/char-model.js';
import { createMockEngine } from './fixtures/mock-engine.js';
import { memoryDataset } from './fixtures/memory-dataset.js';

test('aborting keeps measured cells and marks the rest as interrupted', async () => {
  const controller = new AbortController();
  const first = createMockEngine({ id: 'first' });
  const second = createMockEngine({ id: 'second', onRun: (i) => i === 5 && controller.abort() });
  const third = createMockEngine({ id: 'third' });
  const registry = new EngineRegistry({});
  for (const e of [first, second, third]) registry.register(e);
  const saved: number[] = [];
  const bench = new Benchmark({
    dataset: memoryDataset(16),
    batchSizes: [1, 4],
    registry,
    stop: { minTimeMs: 0, minBatches: 1 },
    warmup: { maxBatches: 2 },
    signal: controller.signal,
    onCell: (_cell, soFar) => {
      saved.push(soFar.length);
    },
  });
  const cells = await bench.run(new CharModel(), ['first', 'second', 'third']);
  assert.deepEqual(cells.map((c) => `${c.engine}/${c.batchSize}:${c.state}`), [
    'first/1:completed',
    'first/4:completed',
    'second/1:errored',
    'second/4:skipped',
    'third/1:skipped',
    'third/4:skipped',
  ]);
  assert.match(JSON.stringify(cells[2]), /interrupted \(Ctrl-C\) after \d+ measured batches/);
  assert.equal(third.log.loads, 0, 'nothing loads after the abort');
  assert.deepEqual(saved, [1, 2, 3, 4, 5, 6], 'every cell is handed to onCell for saving');
});
