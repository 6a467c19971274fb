import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import type { TensorMap } from '../../src/core/tensor.js';
import { cutFeeds as cut, readHfFixture } from '../helpers/hf-fixtures.js';

const RUNS = 1000;

test(`tfjs sessions keep tf.memory() flat over ${RUNS} batches of two shapes and free everything on dispose`, async () => {
  // The tiny BERT fixture exercises every run-time path: folded shape plans, fused kernels, host values and the attention mask.
  const fixture = readHfFixture('bert');
  const batches = [cut(fixture.feeds, 2, 8), cut(fixture.feeds, 1, 5)];
  for (const backend of ['cpu', 'wasm'] as const) {
    const engine = createTfjsEngine(backend);
    assert.ok((await engine.probe()).available, `tfjs-${backend} is not available`);
    await tf.setBackend(backend); // tf.memory() needs an active backend
    const before = tf.memory().numTensors;
    const session = await engine.open(fixture.onnxPath, { threads: null, precision: 'fp32' });
    // One run per shape records its folded plan, whose constants live until dispose.
    for (const b of batches) await session.run(b);
    const loaded = tf.memory();
    for (let i = 0; i < RUNS; i++) await session.run(batches[i % 2] as TensorMap);
    const after = tf.memory();
    assert.equal(after.numTensors, loaded.numTensors, `tfjs-${backend} leaked ${after.numTensors - loaded.numTensors} tensors in ${RUNS} runs`);
    assert.equal(after.numBytes, loaded.numBytes, `tfjs-${backend} leaked ${after.numBytes - loaded.numBytes} bytes in ${RUNS} runs`);
    await session.dispose();
    assert.equal(tf.memory().numTensors, before, `tfjs-${backend} left tensors behind after dispose`);
  }
});
