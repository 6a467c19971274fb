import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs-core';
import { packageRoot } from '../../src/core/package-info.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import type { TensorMap } from '../../src/core/tensor.js';
import { cutFeeds as cut, readHfFixture } from '../helpers/hf-fixtures.js';

const RUNS = 200;

test(`quantized graphs (MatMulInteger chunks, folded DequantizeLinear weights) keep tf.memory() flat over ${RUNS} runs and free everything on dispose`, async () => {
  const fixture = readHfFixture('bert');
  const batches = [cut(fixture.feeds, 2, 8), cut(fixture.feeds, 1, 5)];
  for (const name of ['bert-dynamic', 'bert-qdq']) {
    const path = join(packageRoot(), 'test', 'data', 'quant', name, 'model.onnx');
    for (const backend of ['cpu', 'wasm'] as const) {
      const engine = createTfjsEngine(backend);
      assert.ok((await engine.probe()).available, `tfjs-${backend} is not available`);
      await tf.setBackend(backend); // tf.memory() needs an active backend
      const before = tf.memory().numTensors;
      const session = await engine.open(path, { threads: null, precision: 'int8' });
      for (const b of batches) await session.run(b);
      const loaded = tf.memory();
      for (let i = 0; i < RUNS; i++) await session.run(batches[i % 2] as TensorMap);
      const after = tf.memory();
      assert.equal(after.numTensors, loaded.numTensors, `${name} on tfjs-${backend} leaked ${after.numTensors - loaded.numTensors} tensors`);
      assert.equal(after.numBytes, loaded.numBytes, `${name} on tfjs-${backend} leaked ${after.numBytes - loaded.numBytes} bytes`);
      await session.dispose();
      assert.equal(tf.memory().numTensors, before, `${name} on tfjs-${backend} left tensors behind after dispose`);
    }
  }
});
