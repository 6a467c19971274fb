import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callDifference, compareRuns } from '../../reports/run-comparison.js';
import { buildSweepRun } from '../helpers/sweep-run.js';

test("a change is called only when the t-test of log(B/A) on round means (Welch df) is significant and beyond the minimum effect", () => {
  // Round means 20% apart but so spread that the test cannot tell them apart (scipy, same se and Welch df on log(B/A): p = 0.3545).
  const spread = callDifference([6, 14, 8, 12, 10], [4, 12, 6, 10, 8]);
  assert.equal(spread.call, 'no significant difference');
  assert.match(spread.note, /p = 0\.355 ≥ 0\.05/u);
  assert.ok(spread.ratioCi && spread.ratioCi.low < 1 && spread.ratioCi.high > 1, 'the ratio interval straddles 1');
  // Tight rounds 2% apart: significant (p < 0.001), but below the 5% minimum effect, so not called…
  const small = callDifference([10, 10.01, 9.99, 10.02, 9.98], [9.8, 9.81, 9.79, 9.82, 9.78]);
  assert.equal(small.call, 'no significant difference');
  assert.match(small.note, /p < 0\.001, but the change 2% is below the 5% minimum effect/u);
  // …unless the minimum effect is lowered below it.
  assert.equal(callDifference([10, 10.01, 9.99, 10.02, 9.98], [9.8, 9.81, 9.79, 9.82, 9.78], 0.01).call, 'faster');
  // Tight rounds 10% apart: called both ways, with the p-value as the reason.
  const slower = callDifference([10, 10.1, 9.9], [11, 11.1, 10.9]);
  assert.equal(slower.call, 'slower');
  assert.ok(slower.p !== null && slower.p < 0.001);
  assert.ok(slower.ratio !== null && Math.abs(slower.ratio - 1.1) < 1e-12);
  assert.ok(slower.ratioCi && slower.ratioCi.low > 1.05 && slower.ratioCi.high < 1.15);
  assert.equal(callDifference([11, 11.1, 10.9], [10, 10.1, 9.9]).call, 'faster');

  // Two runs of 5 rounds: onnx-cpu 1.6× faster in B, onnx-wasm 1% slower (below the minimum effect), tfjs-wasm 1.3× slower.
  const a = buildSweepRun({ rounds: 5 });
  const b = buildSweepRun({
    id: 'run-b',
    rounds: 5,
    seedOffset: 7,
    slowdown: (engine) => (engine === 'onnx-cpu' ? 0.62 : engine === 'tfjs-wasm' ? 1.3 : 1.01),
  });
  const cmp = compareRuns(a, b);
  assert.equal(cmp.minEffect, 0.05);
  assert.equal(cmp.cells.length, a.cells.length);
  assert.deepEqual([cmp.onlyInA.length, cmp.onlyInB.length], [0, 0]);
  const calls = (engine: string): string[] => [...new Set(cmp.cells.filter((c) => c.engine === engine && c.call !== 'not compared').map((c) => c.call))];
  assert.deepEqual(calls('onnx-cpu'), ['faster']);
  assert.deepEqual(calls('onnx-wasm'), ['no significant difference']);
  assert.deepEqual(calls('tfjs-wasm'), ['slower']);
  const cpu8 = cmp.cells.find((c) => c.engine === 'onnx-cpu' && c.batchSize === 8 && c.threads === 4);
  assert.ok(cpu8 && cpu8.ratio !== null && Math.abs(cpu8.ratio - 0.62) < 0.02);
  assert.deepEqual([cpu8.roundsA, cpu8.roundsB], [5, 5]);
  assert.equal(cpu8.label, 'onnx-cpu · 4 threads · batch 8');
  const noisy = cmp.cells.find((c) => c.engine === 'onnx-wasm' && c.batchSize === 1 && c.threads === 4);
  assert.deepEqual([noisy?.verdictA, noisy?.verdictB], ['NOISY', 'NOISY']);
  const skipped = cmp.cells.find((c) => c.engine === 'tfjs-wasm' && c.requestedThreads === 2);
  assert.equal(skipped?.call, 'not compared');
  assert.equal(skipped?.note, 'skipped in A, skipped in B');
  // Drift across rounds as large as the change hides it: the same 1.3× on rounds spread ±40% is not called.
  const drifting = compareRuns(buildSweepRun({ rounds: 3, roundDrift: 0.4 }), buildSweepRun({ rounds: 3, roundDrift: 0.4, seedOffset: 3, slowdown: () => 1.3 }));
  assert.ok(drifting.cells.some((c) => c.engine === 'tfjs-wasm' && c.call === 'no significant difference'));
});
