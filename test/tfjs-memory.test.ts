import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import { createTfjsEngine } from '../engines/tfjs/tfjs-engine.js';
import { bertBatch, bertModelDir } from './fixtures/tfjs-bert.js';

test('tfjs sessions keep tf.memory() flat over 200 runs and free everything on dispose', async () => {
  const dir = await bertModelDir();
  const feeds = await bertBatch(dir, ['A wonderful film!', 'Loud.']);
  for (const backend of ['cpu', 'wasm'] as const) {
    const engine = createTfjsEngine(backend);
    assert.ok((await engine.probe()).available, `tfjs-${backend} is not available`);
    await tf.setBackend(backend); // tf.memory() needs an active backend
    const before = tf.memory().numTensors;
    const session = await engine.load(join(dir, 'onnx', 'model.onnx'), { threads: null, precision: 'fp32' });
    await session.run(feeds);
    const loaded = tf.memory();
    for (let i = 0; i < 200; i++) await session.run(feeds);
    const after = tf.memory();
    assert.equal(after.numTensors, loaded.numTensors, `tfjs-${backend} leaked ${after.numTensors - loaded.numTensors} tensors in 200 runs`);
    assert.equal(after.numBytes, loaded.numBytes, `tfjs-${backend} leaked ${after.numBytes - loaded.numBytes} bytes in 200 runs`);
    await session.dispose();
    assert.equal(tf.memory().numTensors, before, `tfjs-${backend} left tensors behind after dispose`);
  }
});
