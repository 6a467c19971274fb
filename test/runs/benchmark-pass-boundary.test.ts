import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Benchmark } from '../../src/runs/benchmark.js';
import { CharModel } from '../helpers/char-model.js';
import { loggedEngines } from '../helpers/logged-engines.js';
import { memoryDataset } from '../helpers/memory-dataset.js';

test('a pass whose last batch ends past the time limit still counts as whole: the limit is checked before a batch starts', async () => {
  // 4 rows, one per batch: three 20 ms batches, then a 1500 ms one, so a pass takes at least 1560 ms (the spins wait for
  // the clock, so load only lengthens them). One round of 3100 ms: the warm pass ends at 1560 ms or later, the timed
  // pass's last batch starts at about 1620 ms, 1480 ms before the limit (the room a loaded machine's scheduling lag has,
  // about as much as this layout allows), and ends at 3120 ms or later: past the limit on any machine.
  const spin = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };
  const { registry } = loggedEngines([{ id: 'e', onRun: (i) => spin(i % 4 === 3 ? 1500 : 20) }]);
  const bench = new Benchmark({ dataset: memoryDataset(4), batchSizes: [1], rounds: 1, registry, parity: { reference: null }, stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: 3100 } });
  const [cell] = await bench.run(new CharModel(), ['e']);
  assert.ok(cell?.state === 'completed');
  assert.deepEqual(cell.firstPass && [cell.firstPass.batches, cell.firstPass.items], [4, 4]);
  assert.equal(cell.rounds?.[0]?.passes, 1);
  assert.equal(cell.samples.runMs.length, 4);
  const reasons = cell.verdict?.reasons.join('; ') ?? '';
  assert.doesNotMatch(reasons, /warm pass cut|of one pass/);
});
