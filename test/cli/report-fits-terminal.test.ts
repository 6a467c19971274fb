/**
 * Issue 34, point 2: the terminal report fits the terminal, opens with the
 * answer, and says which columns each table left out and where they are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { dropToFit, fitNote } from '../../reports/fitted-table.js';
import { renderTable, type TableRow, visibleLength } from '../../reports/text-table.js';
import { ProgressArea, reportWidth } from '../../src/cli/terminal-width.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { buildWideSweep } from '../helpers/wide-sweep.js';

const SAMPLE = buildSampleRun();
const WIDE = buildWideSweep({ models: ['tiny-bert (embedded default)', 'mini'], variants: true, engines: ['onnx-cpu', 'onnx-wasm', 'transformers-js'], batchSizes: [1, 8], sequenceLengths: [8, 128] });

test('no line of the report is wider than the width, the environment block and every table included', () => {
  for (const run of [SAMPLE, WIDE]) {
    for (const width of [60, 80, 100, 120]) {
      const lines = renderTerminalReport(run, { details: true, width, color: true }).split('\n');
      const over = lines.filter((l) => visibleLength(l) > width);
      assert.deepEqual(over, [], `width ${width}`);
    }
  }
});

test('the report opens with the answer: per batch size the fastest engine, its threads, its lead, before any table', () => {
  const text = renderTerminalReport(SAMPLE, { details: true, width: 100 });
  const firstTable = text.indexOf('=====');
  const answer = text.slice(0, firstTable);
  assert.match(answer, /Fastest engine per batch size/);
  for (const batch of [1, 8, 32]) assert.match(answer.replace(/\n +/gu, ' '), new RegExp(`batch ${batch}: onnx-cpu \\(8 threads\\) [\\d.]+ ms, [\\d.]+× ahead of \\S+ \\(1 thread\\)`, 'u'));
});

test('a table that drops columns names them and where they are; --wide prints every column and drops none', () => {
  const narrow = renderTerminalReport(SAMPLE, { details: true, width: 80 });
  assert.match(narrow.replace(/\n/gu, ' '), /To fit 80 columns: .*p50.* not shown\. results\.csv has every column; --wide prints them all\./u);
  const wide = renderTerminalReport(SAMPLE, { details: true, wide: true, width: 80 });
  const speed = wide.slice(wide.indexOf('INFERENCE – SPEED'));
  for (const header of ['backend', 'prec', '±95%', '(min … max)', 'p50', 'p99', 'prepare', 'batches/pass', 'total']) assert.ok(speed.split('\n')[2]?.includes(header), header);
  assert.doesNotMatch(wide, /To fit/);
});

test('a column no table knows about (an adapter column) is abbreviated to fit, never lost, and the note says so', () => {
  const adapter = 'SwiftShader Device (Subzero) (0x0000C0DE), SwiftShader driver, Vulkan 1.3.0';
  const columns = [
    { header: 'engine', align: 'left' as const, dropOrder: 0 },
    { header: 'p50', align: 'right' as const, dropOrder: 1 },
    { header: 'adapter', align: 'left' as const, dropOrder: 0 },
    { header: 'avg', align: 'right' as const, dropOrder: 0 },
  ];
  const values: Record<string, string> = { engine: 'browser-onnx-webgpu', p50: '12.3 ms', adapter, avg: '12.5 ms' };
  const fit = dropToFit(columns, 60, (cols, maxWidth) => {
    const rows: TableRow[] = [{ cells: cols.map((c) => values[c.header] ?? '') }];
    return renderTable({ title: 'T', columns: cols, rows, color: false, ...(maxWidth !== undefined ? { maxWidth } : {}) });
  });
  assert.ok(fit.lines.every((l) => visibleLength(l) <= 60), fit.lines.join('\n'));
  assert.deepEqual(fit.dropped, ['p50']);
  assert.deepEqual(fit.abbreviated, ['adapter']);
  assert.match(fit.lines.join('\n'), /SwiftShader Device.*…/u);
  assert.match(fit.lines.join('\n'), /12\.5 ms/u, 'numbers are never cut');
  assert.match(fitNote(fit, 60).join(' '), /p50 not shown; adapter cut short/u);
});

test('the width: --wide, then COLUMNS, then the terminal, then 80 off a terminal', () => {
  assert.deepEqual(reportWidth({ flags: { wide: true } }, { COLUMNS: '100' }, { isTTY: true, columns: 200 }), { width: 80, wide: true });
  assert.deepEqual(reportWidth({ flags: {} }, { COLUMNS: '100' }, { isTTY: true, columns: 200 }), { width: 100, wide: false });
  assert.deepEqual(reportWidth({ flags: {} }, {}, { isTTY: true, columns: 200 }), { width: 200, wide: false });
  assert.deepEqual(reportWidth({ flags: {} }, { COLUMNS: 'x' }, { isTTY: false, columns: 200 }), { width: 80, wide: false });
  assert.deepEqual(reportWidth(null, {}, {}), { width: 80, wide: false });
});

test('per-round progress is a status line overwritten on a terminal, absent off one, and --quiet silences all progress', () => {
  const sink = (isTTY: boolean) => {
    const written: string[] = [];
    return { written, stream: { isTTY, columns: 40, write: (t: string) => written.push(t) } };
  };
  const tty = sink(true);
  const area = new ProgressArea(false, tty.stream);
  area.status('round 1/3 onnx-cpu batch 1: 1.2 ms');
  area.status('round 2/3 onnx-cpu batch 1: 1.3 ms');
  area.line('[1/6] onnx-cpu batch 1: done');
  assert.deepEqual(tty.written, ['\r\u001b[2Kround 1/3 onnx-cpu batch 1: 1.2 ms', '\r\u001b[2Kround 2/3 onnx-cpu batch 1: 1.3 ms', '\r\u001b[2K', '[1/6] onnx-cpu batch 1: done\n']);
  const pipe = sink(false);
  const piped = new ProgressArea(false, pipe.stream);
  piped.status('round 1/3');
  piped.line('[1/6] done');
  assert.deepEqual(pipe.written, ['[1/6] done\n']);
  const quiet = sink(true);
  const silent = new ProgressArea(true, quiet.stream);
  silent.status('round 1/3');
  silent.line('[1/6] done');
  assert.deepEqual(quiet.written, []);
});
