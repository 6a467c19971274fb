/**
 * Point 3 of issue 22: wherever engines are compared, the threads are the
 * ones each engine reported using, and a sentence comparing cells at
 * different thread counts says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { cellFromRounds, runOf } from '../helpers/round-cells.js';

// onnx-cpu was asked for 4 threads and reported 2; onnx-wasm ran on 1.
const run = runOf([
  cellFromRounds({ engine: 'onnx-cpu', batchSize: 8, rows: 32, requestedThreads: 4, threads: 2, rounds: [{ passes: 1, meanMs: 1.0 }, { passes: 1, meanMs: 1.02 }, { passes: 1, meanMs: 0.98 }] }),
  cellFromRounds({ engine: 'onnx-wasm', batchSize: 8, rows: 32, requestedThreads: 4, threads: 1, rounds: [{ passes: 1, meanMs: 3.4 }, { passes: 1, meanMs: 3.5 }, { passes: 1, meanMs: 3.3 }] }),
]);

test('every table shows the threads read back, the speed table keeps them at any width, and the faster sentence says "2 threads against 1"', () => {
  const text = renderTerminalReport(run, { details: true, width: 160 });
  assert.match(text.replace(/\n {4}/gu, ' '), /batch 8, engine time: onnx-cpu is 3\.4× faster than onnx-wasm \(2 threads against 1\)/u);
  for (const title of ['INFERENCE – LATENCY STATISTICS', 'MEMORY – GROWTH', 'COLD START', 'OUTPUT PARITY']) {
    const section = text.slice(text.indexOf(title));
    assert.match(section, /onnx-cpu +2 \(asked 4\) +8 /u, `${title}: the threads read back, not the 4 asked for`);
  }
  for (const width of [100, 80]) {
    const narrow = renderTerminalReport(run, { details: true, width });
    const speed = narrow.slice(narrow.indexOf('INFERENCE – SPEED'));
    assert.match(speed.split('\n')[2] ?? '', /\bthreads\b/u, `the speed table keeps its threads column at width ${width}`);
    assert.match(speed, /onnx-wasm +1 \(asked 4\)/u);
  }
});
