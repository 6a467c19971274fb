import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletedCell } from '../../src/core/results.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { ERRORED_REASON, SKIPPED_REASON, buildSampleRun } from '../helpers/sample-run.js';

test('terminal report shows every table, engine, failure reason and the fastest engine per batch', () => {
  const run = buildSampleRun();
  const text = renderTerminalReport(run, { details: true });

  for (const title of ['INFERENCE – SPEED', 'MEMORY', 'MODEL SIZE', 'ENVIRONMENT INFORMATION']) {
    assert.ok(text.includes(title), `missing table ${title}`);
  }
  for (const engine of ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu']) {
    assert.ok(text.includes(engine), `missing engine ${engine}`);
  }
  // Long reasons may be cut in the table but are printed in full below it.
  assert.ok(text.includes(ERRORED_REASON));
  assert.ok(text.includes(SKIPPED_REASON.slice(0, 60)));
  assert.match(text, /onnx-wasm +wasm +1 +fp32 +32 +errored +RangeError/u);
  assert.match(text, /tfjs-cpu .* 32 +skipped +estimated 6\.2 min/u);
  assert.ok(text.includes('weights are seeded random'));
  assert.ok(text.includes('onnxruntime-node@1.30.0'));
  assert.ok(text.includes('Hyndman-Fan type 7'));
  assert.ok(text.includes('(tokenization excluded)'));
  assert.ok(!text.includes('\u001b['), 'no ANSI codes unless color is on');

  // The ratio is checked against the fixture's own means, not a hard-coded expectation alone.
  const mean = (engine: string): number =>
    (run.cells.find((c) => c.engine === engine && c.batchSize === 8 && c.state === 'completed') as CompletedCell).latency.mean;
  const ratio = (mean('tfjs-cpu') / mean('onnx-cpu')).toFixed(1);
  assert.equal(ratio, '12.0');
  const joined = text.replace(/\n {4}/gu, ' ');
  assert.ok(
    joined.includes(
      'batch 8, engine time: onnx-cpu is 3.1× faster than tfjs-wasm (8 threads against 1), 4.0× faster than onnx-wasm (8 threads against 1), 12.0× faster than tfjs-cpu (8 threads against default threads)',
    ),
    text,
  );
  // Only onnx-cpu and tfjs-wasm completed at batch 32.
  assert.ok(text.includes('batch 32, engine time: onnx-cpu is 3.1× faster than tfjs-wasm (8 threads against 1)\n'));
});

test('terminal report says nothing about speed ratios when only one engine completed', () => {
  const run = buildSampleRun();
  const single = { ...run, cells: run.cells.filter((c) => c.engine === 'onnx-cpu' || c.state !== 'completed') };
  const text = renderTerminalReport(single, { details: true });
  assert.ok(!text.includes('faster than'));
});

test('colour is ANSI only when asked for, and narrow widths drop optional columns', () => {
  const run = buildSampleRun();
  assert.ok(renderTerminalReport(run, { details: true, color: true }).includes('\u001b[32m'));
  const narrow = renderTerminalReport(run, { details: true, width: 80 });
  const speed = narrow.split('\n').filter((l) => /completed/u.test(l));
  assert.ok(speed.length > 0 && speed.every((l) => l.length <= 80), 'completed rows fit 80 columns');
});
