import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccuracyTally, OutputRecorder, compareOutputs } from '../../src/core/parity.js';

function logits(values: number[][]) {
  return { logits: { dtype: 'float32' as const, dims: [values.length, 2], data: Float32Array.from(values.flat()) } };
}

test('parity reports the largest difference and argmax agreement against the reference', () => {
  const ref = new OutputRecorder();
  ref.add(logits([[0, 1], [2, 1]]), 2);
  ref.add(logits([[5, 5.5]]), 1);
  const cand = new OutputRecorder();
  cand.add(logits([[0, 1.00005], [2, 1]]), 2);
  cand.add(logits([[5.6, 5.5]]), 1);
  const p = compareOutputs(ref.result(), cand.result(), 'onnx-cpu', 1e-4);
  assert.ok(p);
  assert.equal(p.rows, 3);
  assert.ok(Math.abs(p.maxAbsDiff - 0.6) < 1e-5);
  assert.ok(Math.abs(p.argmaxAgreement - 2 / 3) < 1e-12);
  assert.equal(p.withinTolerance, false);
  assert.equal(p.reference, 'onnx-cpu');
});

test('identical outputs are within tolerance; NaN is never within tolerance', () => {
  const a = new OutputRecorder();
  a.add(logits([[1, 2]]), 1);
  assert.equal(compareOutputs(a.result(), a.result(), 'ref', 1e-4)?.withinTolerance, true);
  const nan = new OutputRecorder();
  nan.add(logits([[Number.NaN, 2]]), 1);
  assert.equal(compareOutputs(a.result(), nan.result(), 'ref', 1e-4)?.withinTolerance, false);
});

test('accuracy counts argmax equal to numeric labels and ignores rows without one', () => {
  const t = new AccuracyTally();
  t.add(logits([[0, 1], [3, 1], [0, 2]]), [1, 1, 'x']);
  assert.deepEqual(t.count(), { seen: 3, counted: 2, correct: 1 });
  const none = new AccuracyTally();
  none.add(logits([[0, 1], [3, 1]]), [null, undefined]);
  assert.deepEqual(none.count(), { seen: 2, counted: 0, correct: 0 });
});
