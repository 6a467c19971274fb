import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareVariantOutputs } from '../../src/models/variant-parity.js';
import { hostTensor } from '../../src/core/tensor.js';

test('variant parity reports max and mean |Δ| and the share of rows with the same predicted class', () => {
  const ref = { logits: hostTensor('float32', [3, 2], Float32Array.of(0.1, 0.9, 0.8, 0.2, 0.5, 0.4)) };
  const cand = { logits: hostTensor('float32', [3, 2], Float32Array.of(0.1, 0.8, 0.3, 0.6, 0.5, 0.4)) };
  const p = compareVariantOutputs(ref, cand, { reference: 'fp32', engine: 'onnx-cpu' });
  assert.equal(p.rows, 3);
  assert.ok(Math.abs(p.maxAbsDiff - 0.5) < 1e-6);
  assert.ok(Math.abs(p.meanAbsDiff - (0.1 + 0.5 + 0.4) / 6) < 1e-6);
  assert.equal(p.argmaxAgreement, 2 / 3);
  assert.deepEqual([p.reference, p.engine], ['fp32', 'onnx-cpu']);
  const nan = { logits: hostTensor('float32', [1, 2], Float32Array.of(NaN, 0)) };
  assert.equal(compareVariantOutputs({ logits: hostTensor('float32', [1, 2], Float32Array.of(1, 0)) }, nan, { reference: 'fp32', engine: 'x' }).maxAbsDiff, Infinity);
  assert.throws(() => compareVariantOutputs(ref, { logits: hostTensor('float32', [2, 3], new Float32Array(6)) }, { reference: 'fp32', engine: 'x' }), /shape/);
});
