import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import { EngineRegistry } from '../../src/core/engine-registry.js';
import { CharModel } from '../helpers/char-model.js';
import { createMockEngine } from '../helpers/mock-engine.js';
import { memoryDataset } from '../helpers/memory-dataset.js';

test('aborting mid-cell keeps its timed batches as an interrupted cell, never VALID, and skips what never ran', async () => {
  const controller = new AbortController();
  const first = createMockEngine({ id: 'first' });
  // 16 rows at batch 1: runs 0–15 are the untimed warm pass, so run 20 is the fifth timed batch.
  const second = createMockEngine({ id: 'second', onRun: (i) => i === 20 && controller.abort() });
  const third = createMockEngine({ id: 'third' });
  const registry = new EngineRegistry({});
  for (const e of [first, second, third]) registry.register(e);
  const saved: number[] = [];
  const bench = new Benchmark({
    dataset: memoryDataset(16),
    batchSizes: [1, 4],
    registry,
    stop: { minTimeMs: 0, minBatches: 1 },
    signal: controller.signal,
    onCell: (_cell, soFar) => {
      saved.push(soFar.length);
    },
  });
  const cells = await bench.run(new CharModel(), ['first', 'second', 'third']);
  const line = (c: (typeof cells)[number]) => `${c.engine}/${c.batchSize}:${c.state}${c.state === 'completed' && c.interrupted ? ' interrupted' : ''}`;
  assert.deepEqual(cells.map(line), [
    'first/1:completed interrupted',
    'first/4:completed interrupted',
    'second/1:completed interrupted',
    'second/4:skipped',
    'third/1:skipped',
    'third/4:skipped',
  ]);
  const cut = cells[2];
  assert.ok(cut?.state === 'completed');
  assert.equal(cut.samples.runMs.length, 5, 'the five timed batches before Ctrl-C are kept');
  assert.equal(cut.verdict?.status, 'NOISY');
  assert.match(cut.verdict?.reasons.join('; ') ?? '', /interrupted \(Ctrl-C\) after 1 of 3 rounds/);
  assert.match(JSON.stringify(cells[3]), /interrupted \(Ctrl-C\)/);
  const done = cells[0];
  assert.ok(done?.state === 'completed' && done.rounds?.length === 1, 'a cell with one of its three rounds is kept with that round');
  assert.equal(third.log.opens, 0, 'nothing opens after the abort');
  assert.deepEqual(saved, [1, 2, 3, 4, 5, 6], 'every cell is handed to onCell for saving');
});
