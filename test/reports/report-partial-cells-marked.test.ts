/**
 * Point 7 of issue 22: a cell that never finished a pass saw other rows than
 * the rest. Every view that derives a ratio or a chart point leaves it out
 * or marks it, with the reason: batch scaling, quantization speed-ups, the
 * comparison chart and the CSV's per-pass columns.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ModelInfo } from '../../src/core/results.js';
import { comparisonChartSpec } from '../../reports/chart-spec.js';
import { renderCsv } from '../../reports/csv-report.js';
import { variantComparison } from '../../reports/variant-summary.js';
import { batchScalingView } from '../../reports/run-views.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { cellFromRounds, runOf } from '../helpers/round-cells.js';

const rounds = (meanMs: number) => [{ passes: 1, meanMs }, { passes: 1, meanMs: meanMs * 1.02 }, { passes: 1, meanMs: meanMs * 0.98 }];
// 32 rows; tfjs-cpu at batch 8 saw 1 of its 4 batches before the maximum time.
const partial = cellFromRounds({ engine: 'tfjs-cpu', batchSize: 8, rows: 32, rounds: [{ passes: 0, seen: 1, meanMs: 40 }] });
const run = runOf([
  cellFromRounds({ engine: 'onnx-cpu', batchSize: 1, rows: 32, rounds: rounds(1) }),
  cellFromRounds({ engine: 'tfjs-cpu', batchSize: 1, rows: 32, rounds: rounds(50) }),
  cellFromRounds({ engine: 'onnx-cpu', batchSize: 8, rows: 32, rounds: rounds(4) }),
  partial,
]);

test('a cell without a whole pass is a gap with its reason in batch scaling, the comparison chart, the CSV and the quantization speed-up', () => {
  const tfjs = batchScalingView(run).series.find((s) => s.engine === 'tfjs-cpu');
  assert.ok(tfjs);
  assert.deepEqual(tfjs.points.map((p) => p.x), [1], 'no point at batch 8: it would compare rows 1–8 with all 32');
  assert.deepEqual(tfjs.gaps, [{ x: 8, state: 'partial', reason: 'saw 1 of 4 batches of one pass' }]);

  const values = (comparisonChartSpec(run) as unknown as { data: { values: Record<string, unknown>[] } }).data.values;
  assert.ok(!values.some((v) => v['kind'] === 'segment' && v['engine'] === 'tfjs-cpu' && v['batch'] === 8), 'no bar');
  assert.ok(values.some((v) => v['kind'] === 'gap' && v['engine'] === 'tfjs-cpu' && v['batch'] === 8 && v['text'] === 'no bar: saw 1 of 4 batches of one pass'), 'a labelled gap in its place');

  const [header, ...rows] = parseCsv(renderCsv(run));
  assert.ok(header);
  const row = rows.find((r) => r[header.indexOf('engine')] === 'tfjs-cpu' && r[header.indexOf('batch_size')] === '8');
  assert.ok(row);
  assert.equal(row[header.indexOf('total_ms')], '', 'no per-pass total');
  assert.equal(row[header.indexOf('samples_per_s')], '', 'no samples/s');
  assert.equal(row[header.indexOf('partial_pass')], 'saw 1 of 4 batches of one pass');

  // A variant whose cell saw no whole pass gets no speed-up over fp32.
  const variant = (dtype: string): ModelInfo => ({ name: `m · ${dtype}`, source: '/m', sizeBytes: 100, notes: [], variant: { of: 'm', dtype, file: `onnx/${dtype}.onnx`, parity: null } });
  const quantized = runOf([
    cellFromRounds({ model: 'm · fp32', engine: 'tfjs-cpu', batchSize: 8, rows: 32, rounds: rounds(40) }),
    { ...partial, model: 'm · q8' },
  ]);
  const rowsQ = variantComparison({ ...quantized, models: [variant('fp32'), variant('q8')] });
  assert.equal(rowsQ.length, 1);
  assert.equal(rowsQ[0]?.speedup, null, 'rows 1–8 against a whole pass is no speed-up');
});
