import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CSV_COLUMNS, renderCsv } from '../../reports/csv-report.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { ERRORED_REASON, SKIPPED_REASON, buildSampleRun } from '../helpers/sample-run.js';

test('CSV has one row per cell with state and reason, and parses back exactly', () => {
  const run = buildSampleRun();
  const csv = renderCsv(run);
  const [header, ...rows] = parseCsv(csv);
  assert.deepEqual(header, [...CSV_COLUMNS]);
  for (const name of ['run_id', 'engine', 'versions', 'batch_size', 'state', 'reason', 'p99_ms', 'peak_rss_bytes']) {
    assert.ok(CSV_COLUMNS.includes(name), name);
  }
  assert.equal(rows.length, run.cells.length);
  const col = (row: string[], name: string): string => row[CSV_COLUMNS.indexOf(name)] ?? '<missing>';
  for (const row of rows) assert.equal(row.length, CSV_COLUMNS.length);

  const errored = rows.find((r) => col(r, 'state') === 'errored');
  assert.ok(errored);
  assert.ok(ERRORED_REASON.includes(',') && ERRORED_REASON.includes('"'));
  assert.equal(col(errored, 'reason'), ERRORED_REASON);
  assert.ok(csv.includes('"wasm"'.replace(/"/gu, '""')), 'quotes are doubled');
  assert.equal(col(errored, 'mean_ms'), '');
  assert.equal(col(errored, 'backend'), 'wasm', 'session facts are kept when the engine opened');

  const skipped = rows.find((r) => col(r, 'state') === 'skipped');
  assert.ok(skipped);
  assert.equal(col(skipped, 'reason'), SKIPPED_REASON);
  assert.equal(col(skipped, 'versions'), '');

  const onnx8 = rows.find((r) => col(r, 'engine') === 'onnx-cpu' && col(r, 'batch_size') === '8');
  assert.ok(onnx8);
  assert.equal(col(onnx8, 'state'), 'completed');
  assert.equal(col(onnx8, 'reason'), '');
  assert.equal(col(onnx8, 'versions'), 'onnxruntime-node@1.30.0;onnxruntime-common@1.30.0');
  assert.equal(col(onnx8, 'measured_batches'), '12');
  assert.ok(Math.abs(Number(col(onnx8, 'mean_ms')) - 9.6) < 1e-9);
  assert.equal(col(onnx8, 'requested_threads'), '');
});
