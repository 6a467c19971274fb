import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import { betweenRoundsOf } from '../../src/core/statistics.js';
import { CharModel } from '../helpers/char-model.js';
import { loggedEngines } from '../helpers/logged-engines.js';
import { memoryDataset } from '../helpers/memory-dataset.js';

test('each round opens every engine afresh, in an order rotated by the round, and the interval is across round means', async () => {
  const { registry, opens } = loggedEngines([{ id: 'a' }, { id: 'b' }, { id: 'c' }]);
  const rounds: string[] = [];
  const bench = new Benchmark({
    dataset: memoryDataset(12),
    batchSizes: [1, 4],
    rounds: 3,
    registry,
    parity: { reference: 'a' },
    stop: { minTimeMs: 0, minBatches: 1 },
    onProgress: (e) => {
      if (e.kind === 'round-done') rounds.push(`${e.round}:${e.engine}/${e.batchSize}`);
    },
  });
  const cells = await bench.run(new CharModel(), ['a', 'b', 'c']);
  // Round r starts at open r: drift over the sweep falls on every engine alike.
  assert.deepEqual(opens, ['a', 'b', 'c', 'b', 'c', 'a', 'c', 'a', 'b']);
  assert.equal(rounds.length, 3 * 6, 'progress reports every round of every cell');
  assert.deepEqual(rounds.slice(6, 8), ['1:b/1', '1:b/4']);
  // Cells are recorded in sweep order, whatever order the last round ran in.
  assert.deepEqual(cells.map((c) => `${c.engine}/${c.batchSize}`), ['a/1', 'a/4', 'b/1', 'b/4', 'c/1', 'c/4']);
  for (const cell of cells) {
    assert.ok(cell.state === 'completed');
    assert.equal(cell.rounds?.length, 3);
    assert.deepEqual(cell.rounds?.map((r) => r.index), [0, 1, 2]);
    // Percentiles pool every round's raw batches; the interval comes from the three round means.
    assert.equal(cell.samples.runMs.length, cell.rounds?.reduce((n, r) => n + r.runMs.length, 0));
    assert.equal(cell.latency.count, cell.samples.runMs.length);
    const means = cell.rounds?.map((r) => r.runMs.reduce((a, b) => a + b, 0) / r.runMs.length) ?? [];
    assert.deepEqual(cell.betweenRounds, betweenRoundsOf(means));
    assert.ok(cell.betweenRounds?.ci95 !== null);
    assert.ok(cell.rounds?.every((r) => r.noise !== undefined && r.noise.before.loadPerCore >= 0 && r.firstPassMs > 0));
  }
});
