/**
 * Point 4 of issue 22: accuracy is computed over the same rows on every
 * engine, one whole pass, whatever the parity row cap; an engine that did
 * not see every row has no accuracy, only how many rows it saw.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Dataset, type DataRow } from '../../datasets/dataset.js';
import { Benchmark } from '../../src/runs/benchmark.js';
import type { CompletedCell, RunRecord } from '../../src/core/results.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { CharModel } from '../helpers/char-model.js';
import { loggedEngines } from '../helpers/logged-engines.js';
import { buildSampleRun } from '../helpers/sample-run.js';

/** 40 rows; the mock engine predicts class 0 for every row, and only the first 8 are labelled 0. */
function dataset(): Dataset {
  const rows: DataRow[] = Array.from({ length: 40 }, (_, i) => ({ text: `review ${i}`, label: i < 8 ? 0 : 1 }));
  return new Dataset('labelled', async function* () {
    yield* rows;
  }, async () => ['text', 'label']);
}

test('accuracy counts every row of one pass, not the parity rows; an engine that saw fewer rows says how many instead', async () => {
  // The slow engine's warm pass (50 ms a row, 40 rows) cannot fit half of its 1500 ms round: it is cut. The fast engine's
  // 40 rows take a few ms a pass, so its rounds are whole on any loaded machine.
  const { registry } = loggedEngines([{ id: 'fast' }, { id: 'slow', msPerItem: 50 }]);
  const bench = new Benchmark({
    dataset: dataset(),
    limit: 40,
    batchSizes: [1],
    rounds: 3,
    registry,
    parity: { reference: 'fast', rows: 8 },
    stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: 4500 },
  });
  const cells = await bench.run(new CharModel(), ['fast', 'slow']);
  const fast = cells.find((c): c is CompletedCell => c.engine === 'fast' && c.state === 'completed');
  const slow = cells.find((c): c is CompletedCell => c.engine === 'slow' && c.state === 'completed');
  assert.ok(fast && slow);
  assert.equal(fast.accuracy, 8 / 40, 'all 40 rows, not the 8 parity rows (which would give 100%)');
  assert.deepEqual(fast.accuracyRows, { counted: 40, seen: 40, of: 40 });
  assert.equal(slow.accuracy, null, 'no accuracy over fewer rows than the others');
  assert.ok(slow.accuracyRows && slow.accuracyRows.seen < 40 && slow.accuracyRows.of === 40);

  const text = renderTerminalReport({ ...buildSampleRun(), cells } as RunRecord, { details: true, width: 200 });
  assert.match(text, /fast .* 20\.0% \(40 rows\)/u);
  assert.match(text, new RegExp(`slow .* n/a \\(saw ${slow.accuracyRows.seen} of 40 rows\\)`, 'u'));
});
