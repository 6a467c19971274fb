import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callDifference, compareRuns, intervalsOverlap } from '../reports/run-comparison.js';
import { computeStatistics } from '../src/core/statistics.js';
import { buildSampleRun } from './fixtures/sample-run.js';
import { buildSweepRun } from './fixtures/sweep-run.js';

test('a change is called only when the 95% confidence intervals do not overlap', () => {
  assert.equal(intervalsOverlap({ low: 1, high: 2 }, { low: 2, high: 3 }), true, 'touching intervals overlap');
  assert.equal(intervalsOverlap({ low: 1, high: 2 }, { low: 2.01, high: 3 }), false);

  // Means 20% apart but samples so spread that the intervals overlap: no call.
  const wideA = computeStatistics([6, 14, 8, 12, 10]);
  const wideB = computeStatistics([4, 12, 6, 10, 8]);
  assert.ok(wideB.mean / wideA.mean < 0.85);
  assert.deepEqual(callDifference(wideA, wideB), { call: 'no significant difference', note: null });
  // Means 2% apart with tight samples: a real, small change.
  const tightA = computeStatistics([10, 10.01, 9.99, 10.02, 9.98]);
  const tightB = computeStatistics([9.8, 9.81, 9.79, 9.82, 9.78]);
  assert.equal(callDifference(tightA, tightB).call, 'faster');
  assert.equal(callDifference(tightB, tightA).call, 'slower');
  // One batch has no interval, so nothing can be called.
  const single = callDifference(computeStatistics([5]), tightA);
  assert.equal(single.call, 'no significant difference');
  assert.match(single.note ?? '', /no confidence interval/u);

  // Two runs: onnx-cpu 1.6× faster in B, onnx-wasm 1% slower (inside the noise), tfjs-wasm 1.3× slower.
  const a = buildSweepRun();
  const b = buildSweepRun({
    id: 'run-b',
    seedOffset: 7,
    slowdown: (engine) => (engine === 'onnx-cpu' ? 0.62 : engine === 'tfjs-wasm' ? 1.3 : 1.01),
  });
  const cmp = compareRuns(a, b);
  assert.equal(cmp.cells.length, a.cells.length);
  assert.deepEqual([cmp.onlyInA.length, cmp.onlyInB.length], [0, 0]);
  const calls = (engine: string): string[] => [...new Set(cmp.cells.filter((c) => c.engine === engine && c.call !== 'not compared').map((c) => c.call))];
  assert.deepEqual(calls('onnx-cpu'), ['faster']);
  assert.deepEqual(calls('onnx-wasm'), ['no significant difference']);
  assert.deepEqual(calls('tfjs-wasm'), ['slower']);
  const cpu8 = cmp.cells.find((c) => c.engine === 'onnx-cpu' && c.batchSize === 8 && c.requestedThreads === 4);
  assert.ok(cpu8 && cpu8.ratio !== null && Math.abs(cpu8.ratio - 0.62) < 0.01);
  assert.equal(cpu8.label, 'onnx-cpu · 4 threads · batch 8');
  const noisy = cmp.cells.find((c) => c.engine === 'onnx-wasm' && c.batchSize === 1 && c.requestedThreads === 4);
  assert.deepEqual([noisy?.verdictA, noisy?.verdictB], ['NOISY', 'NOISY']);
  const skipped = cmp.cells.find((c) => c.engine === 'tfjs-wasm' && c.requestedThreads === 2);
  assert.equal(skipped?.call, 'not compared');
  assert.equal(skipped?.note, 'skipped in A, skipped in B');

  // Cells match on requested threads too: a default-threads run shares nothing with a 1,2,4 sweep.
  const none = compareRuns(buildSampleRun(), a);
  assert.equal(none.cells.length, 0);
  assert.equal(none.onlyInA.length, buildSampleRun().cells.length);
});
