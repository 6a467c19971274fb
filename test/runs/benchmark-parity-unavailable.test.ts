import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import { CharModel } from '../helpers/char-model.js';
import { loggedEngines } from '../helpers/logged-engines.js';
import { memoryDataset } from '../helpers/memory-dataset.js';

const options = { dataset: memoryDataset(8), batchSizes: [1, 4], rounds: 2, stop: { minTimeMs: 0, minBatches: 1 } } as const;

test('a reference engine that fails to open is named on every cell instead of swallowed', async () => {
  const { registry } = loggedEngines([{ id: 'broken', openError: 'model file is corrupt' }, { id: 'e' }]);
  const cells = await new Benchmark({ ...options, registry, parity: { reference: 'broken' } }).run(new CharModel(), ['e']);
  for (const cell of cells) {
    assert.ok(cell.state === 'completed');
    assert.equal(cell.parity, null);
    assert.equal(cell.parityUnavailable, 'reference broken failed to open: model file is corrupt');
  }
});

test('a reference cell that errored at one batch size leaves the others at that size without parity, with why', async () => {
  const { registry } = loggedEngines([{ id: 'ref', failAtBatchSize: { size: 4, message: 'out of memory' } }, { id: 'e' }]);
  const cells = await new Benchmark({ ...options, registry, parity: { reference: 'ref' } }).run(new CharModel(), ['ref', 'e']);
  const at = (b: number) => cells.find((c) => c.engine === 'e' && c.batchSize === b);
  const ok = at(1);
  assert.ok(ok?.state === 'completed' && ok.parity?.withinTolerance === true);
  const missing = at(4);
  assert.ok(missing?.state === 'completed');
  assert.equal(missing.parity, null);
  assert.match(missing.parityUnavailable ?? '', /^reference ref has no outputs at batch 4 \(errored: out of memory\)$/);
});
