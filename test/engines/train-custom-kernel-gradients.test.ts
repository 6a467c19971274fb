import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';
import { gelu, layerNormLastAxis } from '../../engines/tfjs/custom-kernels.js';
import { embeddingGather, ensureGradientKernels } from '../../engines/tfjs/gradient-kernels.js';

/** The same maths from tfjs ops, whose gradients tfjs itself defines. */
function layerNormOps(x: tf.Tensor, g: tf.Tensor, b: tf.Tensor, eps: number): tf.Tensor {
  const centered = tf.sub(x, tf.mean(x, -1, true));
  return tf.add(tf.mul(tf.mul(centered, tf.rsqrt(tf.add(tf.mean(tf.square(centered), -1, true), eps))), g), b);
}
function geluOps(x: tf.Tensor, tanh: boolean): tf.Tensor {
  if (tanh) return tf.mul(tf.mul(0.5, x), tf.add(1, tf.tanh(tf.mul(Math.sqrt(2 / Math.PI), tf.add(x, tf.mul(0.044715, tf.pow(x, 3)))))));
  return tf.mul(tf.mul(0.5, x), tf.add(1, tf.erf(tf.mul(x, Math.SQRT1_2))));
}

function maxDiff(a: tf.Tensor, b: tf.Tensor): number {
  return tf.tidy(() => tf.max(tf.abs(tf.sub(a, b))).dataSync()[0] as number);
}

for (const backend of ['cpu', 'wasm']) {
  test(`on tfjs-${backend} the registered gradients of inferbench's LayerNorm, GELU and embedding-gather kernels equal tfjs's own`, async () => {
    await tf.setBackend(backend);
    await ensureGradientKernels();
    tf.tidy(() => {
      const x = tf.randomNormal([3, 5, 16], 0, 1, 'float32', 7);
      const g = tf.randomNormal([16], 1, 0.2, 'float32', 8);
      const b = tf.randomNormal([16], 0, 0.2, 'float32', 9);
      const w = tf.randomNormal([3, 5, 16], 0, 1, 'float32', 10);
      const ours = tf.grads((xx: tf.Tensor, gg: tf.Tensor, bb: tf.Tensor) => tf.sum(tf.mul(layerNormLastAxis(xx, gg, bb, 1e-5), w)))([x, g, b]);
      const ref = tf.grads((xx: tf.Tensor, gg: tf.Tensor, bb: tf.Tensor) => tf.sum(tf.mul(layerNormOps(xx, gg, bb, 1e-5), w)))([x, g, b]);
      ours.forEach((t, i) => assert.ok(maxDiff(t, ref[i] as tf.Tensor) < 1e-4, `LayerNorm d${['x', 'gamma', 'beta'][i]}`));
      for (const tanh of [false, true]) {
        const a = tf.grad((xx: tf.Tensor) => tf.sum(tf.mul(gelu(xx, tanh), w)))(x);
        const r = tf.grad((xx: tf.Tensor) => tf.sum(tf.mul(geluOps(xx, tanh), w)))(x);
        assert.ok(maxDiff(a, r) < 1e-5, `GELU (${tanh ? 'tanh' : 'erf'}) dx`);
      }
      const table = tf.randomNormal([10, 4], 0, 1, 'float32', 11);
      const idx = tf.tensor2d([[1, 3, 3], [9, 0, 1]], [2, 3], 'int32');
      const dy = tf.randomNormal([2, 3, 4], 0, 1, 'float32', 12);
      const e = tf.grad((t: tf.Tensor) => tf.sum(tf.mul(embeddingGather(t, idx), dy)))(table);
      const expected = tf.buffer([10, 4], 'float32');
      const rows = [1, 3, 3, 9, 0, 1];
      const dyv = dy.dataSync();
      rows.forEach((row, i) => { for (let j = 0; j < 4; j++) expected.set(expected.get(row, j) + (dyv[i * 4 + j] as number), row, j); });
      assert.ok(maxDiff(e, expected.toTensor()) < 1e-6, 'embedding gather d table = scatter-add of dy rows');
    });
  });
}
