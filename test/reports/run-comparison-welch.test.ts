import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callDifference, callWords, compareRuns, roundsToSettle } from '../../reports/run-comparison.js';
import { buildSweepRun } from '../helpers/sweep-run.js';

test("a change is called only when the t-test of log(B/A) on round means (Welch df) is significant and beyond the minimum effect", () => {
  // Round means 20% apart but so spread that the test cannot tell them apart (scipy, same se and Welch df on log(B/A): p = 0.3545).
  const spread = callDifference([6, 14, 8, 12, 10], [4, 12, 6, 10, 8]);
  // Its interval (0.6×–1.3×) cannot rule out a ±5% change: inconclusive, with the rounds the spread says would settle it (issue 47).
  assert.equal(spread.call, 'inconclusive');
  assert.match(spread.note, /^0\.\d\d×–1\.\d\d×: more rounds would tell \(--rounds \d+\)$/u);
  assert.equal(spread.p !== null && Number(spread.p.toFixed(4)), 0.3545);
  assert.ok(spread.ratioCi && spread.ratioCi.low < 1 && spread.ratioCi.high > 1, 'the ratio interval straddles 1');
  // Tight rounds 2% apart: significant (p < 0.001), but below the 5% minimum effect, and the whole interval within ±5%: no difference…
  const small = callDifference([10, 10.01, 9.99, 10.02, 9.98], [9.8, 9.81, 9.79, 9.82, 9.78]);
  assert.equal(small.call, 'no difference');
  assert.match(small.note, /^0\.98×–0\.98×, within the ±5% equivalence bound$/u);
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
  assert.ok(calls('onnx-wasm').every((c) => c === 'no difference' || c === 'inconclusive'), calls('onnx-wasm').join());
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
  assert.ok(drifting.cells.some((c) => c.engine === 'tfjs-wasm' && c.call === 'inconclusive'));
});

test('an interval too wide to rule out a ±5% change is inconclusive, in the same words everywhere; "no difference" only within the bound', () => {
  // Issue 47's case: 1.47× in the mean, the interval running from below 1 to over 2.
  const wide = callDifference([10, 13, 7.5], [12, 21, 11]);
  assert.equal(wide.call, 'inconclusive');
  const words = callWords({ call: wide.call, ratio: wide.ratio, note: wide.note });
  assert.match(words, /^inconclusive \(0\.\d\d×–[2-9]\.\d\d×\): more rounds would tell \(--rounds (\d+)\)$/u);
  const n = Number(/--rounds (\d+)/u.exec(words)?.[1]);
  assert.ok(n > 3, `more rounds than the 3 measured: ${n}`);
  // With the suggested rounds at the same spread, the interval is narrow enough to exclude 1.
  assert.equal(roundsToSettle([10, 13, 7.5], [12, 21, 11], wide.ratio ?? 1), n);
  assert.equal(callWords({ call: 'slower', ratio: 1.5, note: 'p = 0.010' }), 'B 1.50× slower (p = 0.010)');
  assert.equal(callWords({ call: 'no difference', ratio: 1, note: '0.99×–1.02×, within the ±5% equivalence bound' }), 'no difference (0.99×–1.02×, within the ±5% equivalence bound)');
});
