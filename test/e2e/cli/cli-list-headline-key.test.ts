import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletedCell, ModelInfo, RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { seedEntry } from '../../helpers/dashboard.js';
import { buildSampleRun } from '../../helpers/sample-run.js';
import { betweenRoundsOf } from '../../../src/core/statistics.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** Two precisions of one model at two sequence lengths; the fastest cell is q8 at sequence length 8. */
function variantRun(): RunRecord {
  const sample = buildSampleRun();
  const row = (dtype: string): ModelInfo => ({ name: `tiny · ${dtype}`, source: '/models/tiny', sizeBytes: 1000, notes: [], variant: { of: 'tiny', dtype, file: `onnx/model_${dtype}.onnx`, parity: null } });
  const fast = sample.cells.find((c) => c.state === 'completed' && c.engine === 'onnx-cpu' && c.batchSize === 8) as CompletedCell;
  const fp32 = sample.cells.map((c) => ({ ...c, model: 'tiny · fp32', sequenceLength: 16 }));
  // Figures come from round means (8 items in 0.16 ms a batch is 50,000 items/s), not from a stored rate.
  const q8 = { ...fast, model: 'tiny · q8', sequenceLength: 8, betweenRounds: betweenRoundsOf([0.15, 0.16, 0.17]), samplesPerSecond: 50_000 };
  return { ...sample, models: [row('fp32'), row('q8')], cells: [...fp32, q8] };
}

test('list names the best throughput with the whole key of its cell (model row, precision, sequence length), and the run with all its precisions', async () => {
  const out = testOutputDir('cli-list-headline-key');
  await seedEntry(out, 'variants', { record: variantRun() });
  const list = await runCli(['list', '--out', out]);
  assert.equal(list.code, 0, list.stderr);
  const row = list.stdout.split('\n').find((l) => /^\s*1\s/.test(l)) ?? '';
  assert.match(row, /tiny · fp32, q8 /, 'the model column names every precision, not the first row');
  assert.match(row, /tiny · q8: onnx-cpu 50\.0k items\/s at batch 8, seq 8/);

  const show = await runCli(['show', '1', '--out', out]);
  assert.match(show.stdout, /best: +tiny · q8: onnx-cpu 50\.0k items\/s at batch 8, seq 8/);
});
