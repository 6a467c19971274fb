/**
 * Point 6 of issue 22: one estimator. Mean, samples/s, totals and ratios
 * all come from the round means, the figure the 95% interval is centred on,
 * so a round that timed more passes weighs no more than another;
 * percentiles keep pooling the batches, and say so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderCsv } from '../../reports/csv-report.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { cellFromRounds, runOf } from '../helpers/round-cells.js';

// 8 rows at batch 1. Round 1 timed 4 passes at 1 ms a batch, rounds 2 and 3 one pass at 2 and 3 ms:
// the mean of round means is 2 ms; pooling the 48 batches would give 1.5 ms.
const uneven = cellFromRounds({ engine: 'onnx-cpu', batchSize: 1, rows: 8, rounds: [{ passes: 4, meanMs: 1 }, { passes: 1, meanMs: 2 }, { passes: 1, meanMs: 3 }] });
const steady = cellFromRounds({ engine: 'onnx-wasm', batchSize: 1, rows: 8, rounds: [{ passes: 1, meanMs: 8 }, { passes: 1, meanMs: 8.2 }, { passes: 1, meanMs: 7.8 }] });
const run = runOf([uneven, steady]);

test('mean, total, samples/s and ratios are the mean of round means, centred in the interval; percentiles pool the batches', () => {
  const [header, ...rows] = parseCsv(renderCsv(run));
  assert.ok(header);
  const row = rows.find((r) => r[header.indexOf('engine')] === 'onnx-cpu');
  assert.ok(row);
  const col = (name: string): number => Number(row[header.indexOf(name)]);
  assert.ok(Math.abs(col('mean_ms') - 2) < 1e-9, `mean_ms ${col('mean_ms')}: the mean of round means, not the pooled 1.5`);
  // Centred on the log scale: the geometric middle of the interval is the mean.
  assert.ok(Math.abs(Math.sqrt(col('ci95_low_ms') * col('ci95_high_ms')) - col('mean_ms')) < 1e-9, 'the interval is centred on it');
  assert.ok(Math.abs(col('total_ms') - 16) < 1e-9);
  assert.ok(Math.abs(col('samples_per_s') - 500) < 1e-6, '8 rows per 16 ms pass');
  assert.equal(col('p50_ms'), 1, 'the median pools every batch (32 of 48 took 1 ms)');

  const text = renderTerminalReport(run, { details: true, width: 200 }).replace(/\n {4}/gu, ' ');
  assert.match(text, /batch 1, engine time: onnx-cpu is 4\.0× faster than onnx-wasm/u, '8 ms ÷ 2 ms, not 8 ÷ 1.5');
  assert.match(text, /percentiles, min, max, stdev and cv pool every batch of every round|n, percentiles, min, max, stdev and cv pool every batch of every round/u);
});
