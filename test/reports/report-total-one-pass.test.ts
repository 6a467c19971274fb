/**
 * Point 1 of issue 22: a cell's total is the time to stream the rows once,
 * whatever number of passes the stop rule let it time, so an engine that
 * timed four passes a round is not drawn with four times the work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderCsv } from '../../reports/csv-report.js';
import { comparisonChartSpec } from '../../reports/chart-spec.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { cellFromRounds, runOf } from '../helpers/round-cells.js';

// 64 rows at batch 8: 8 batches a pass. The fast engine timed 4 passes a round, the slow one 1.
const fast = cellFromRounds({ engine: 'onnx-cpu', batchSize: 8, rows: 64, rounds: [{ passes: 4, meanMs: 1.1 }, { passes: 4, meanMs: 0.9 }, { passes: 4, meanMs: 1.0 }] });
const slow = cellFromRounds({ engine: 'tfjs-cpu', batchSize: 8, rows: 64, rounds: [{ passes: 1, meanMs: 11 }, { passes: 1, meanMs: 9 }, { passes: 1, meanMs: 10 }] });
const run = runOf([fast, slow]);

test('total is one pass on every engine: total_ms ÷ mean_ms is the batches of a pass, in the CSV, the speed table and comparison.png', () => {
  const [header, ...rows] = parseCsv(renderCsv(run));
  assert.ok(header);
  const col = (row: string[], name: string): number => Number(row[header.indexOf(name)]);
  const byEngine = new Map(rows.map((r) => [r[header.indexOf('engine')], r]));
  for (const [engine, total] of [['onnx-cpu', 8], ['tfjs-cpu', 80]] as const) {
    const row = byEngine.get(engine);
    assert.ok(row, engine);
    assert.ok(Math.abs(col(row, 'total_ms') - total) < 1e-9, `${engine} total_ms ${col(row, 'total_ms')}, one pass is ${total} ms`);
    assert.ok(Math.abs(col(row, 'total_ms') / col(row, 'mean_ms') - 8) < 1e-9, `${engine}: total ÷ mean is the 8 batches of a pass`);
  }

  // The same figure in the speed table: total and avg side by side.
  const text = renderTerminalReport(run, { details: true, width: 200 });
  assert.match(text, /onnx-cpu .* 8 +8\.00 ms +1\.00 ms/u);
  assert.match(text, /tfjs-cpu .* 8 +80\.0 ms +10\.0 ms/u);

  // And the bars: engine time of one pass, so the slow engine's is 10 times the fast one's, as per pass it is.
  const values = (comparisonChartSpec(run) as unknown as { data: { values: Record<string, unknown>[] } }).data.values;
  const engineBar = (engine: string) => values.find((v) => v['kind'] === 'segment' && v['segment'] === 'engine time' && v['engine'] === engine);
  assert.ok(Math.abs(Number(engineBar('onnx-cpu')?.['y1']) - 8) < 1e-9, 'onnx-cpu bar: one pass');
  assert.ok(Math.abs(Number(engineBar('tfjs-cpu')?.['y1']) - 80) < 1e-9, 'tfjs-cpu bar: one pass');
});
