import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CSV_COLUMNS, renderCsv } from '../../reports/csv-report.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { parseCsv } from '../helpers/parse-csv.js';
import { PARITY_FAILURE, buildSweepRun } from '../helpers/sweep-run.js';

test('a cell whose outputs differ beyond tolerance is flagged in the terminal and in the CSV', () => {
  const run = buildSweepRun();
  for (const width of [160, 80]) {
    const text = renderTerminalReport(run, { details: true, width });
    // The speed table marks the row, at any width (a narrow one drops the state column: the check says it).
    assert.match(text, width > 100 ? /tfjs-wasm \(1 thread\) .* 8 +completed +✗ PARITY/u : /tfjs-wasm \(1 thread\) .* 8 +✗ PARITY/u, `speed table at width ${width}`);
    // One warning line names engine, batch, difference and tolerance.
    const warning = text.split('\n').findIndex((l) => l.startsWith('warning: ✗ PARITY'));
    assert.ok(warning >= 0, 'warning line present');
    const paragraph = text.split('\n').slice(warning, warning + 3).join(' ').replace(/\s+/gu, ' ');
    assert.ok(paragraph.includes('tfjs-wasm (1 thread), batch 8: outputs differ from onnx-cpu by 0.0312, over the tolerance 1.0e-4'), paragraph);
    // The "faster than" line does not let a fast wrong engine pass unnoticed.
    assert.match(text.replace(/\n {4}/gu, ' '), /tfjs-wasm \(1 thread\) \(✗ PARITY\)/u);
  }
  const text = renderTerminalReport(run, { details: true });
  assert.match(text, /OUTPUT PARITY & ACCURACY/u);
  assert.match(text, /tfjs-wasm +1 +8 +onnx-cpu +0\.0312 +1\.0e-4 +95\.8% \(96 rows\) +47\.9% +✗ PARITY/u);
  assert.match(text, /onnx-wasm +1 +8 +onnx-cpu +2\.4e-6 +1\.0e-4 +100% \(96 rows\) +51\.0% +✓ ok/u);
  assert.ok(renderTerminalReport(run, { details: true, color: true }).includes('\u001b[31m✗ PARITY'), 'red when colour is on');
  assert.equal(text.match(/warning: ✗ PARITY/gu)?.length, 1, 'only the failing cell is warned about');

  const [header, ...rows] = parseCsv(renderCsv(run));
  assert.ok(header);
  const col = (row: string[], name: string): string | undefined => row[header.indexOf(name)];
  const failing = rows.filter((r) => col(r, 'parity_ok') === 'false');
  assert.equal(failing.length, 1);
  const [bad] = failing;
  assert.ok(bad);
  assert.deepEqual(
    [col(bad, 'engine'), col(bad, 'batch_size'), col(bad, 'max_abs_diff'), col(bad, 'parity_tolerance'), col(bad, 'parity_reference')],
    [PARITY_FAILURE.engine, String(PARITY_FAILURE.batchSize), String(PARITY_FAILURE.maxAbsDiff), String(PARITY_FAILURE.tolerance), 'onnx-cpu'],
  );
  assert.ok(CSV_COLUMNS.indexOf('parity_ok') < CSV_COLUMNS.indexOf('mean_ms'), 'parity_ok sits beside state, before the timings');
  assert.equal(rows.filter((r) => col(r, 'parity_ok') === 'true').length, 10);
  assert.equal(col(rows.find((r) => col(r, 'engine') === 'onnx-cpu') ?? [], 'parity_ok'), '', 'the reference itself is not checked');
});
