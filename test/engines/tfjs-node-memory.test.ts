import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import type { TensorMap } from '../../src/core/tensor.js';
import { cutFeeds as cut, readHfFixture } from '../helpers/hf-fixtures.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

const RUNS = 300;

test(`tfjs-node keeps tf.memory() flat over ${RUNS} batches of two shapes and frees everything on dispose`, { skip: await tfjsNodeSkip() }, async () => {
  const fixture = readHfFixture('bert');
  const batches = [cut(fixture.feeds, 2, 8), cut(fixture.feeds, 1, 5)];
  const engine = createTfjsEngine('node');
  const session = await engine.open(fixture.onnxPath, { threads: null, precision: 'fp32' });
  assert.equal(tf.getBackend(), 'tensorflow');
  // One run per shape records its folded plan, whose constants live until dispose.
  for (const b of batches) await session.run(b);
  const loaded = tf.memory();
  for (let i = 0; i < RUNS; i++) await session.run(batches[i % 2] as TensorMap);
  const after = tf.memory();
  assert.equal(after.numTensors, loaded.numTensors, `tfjs-node leaked ${after.numTensors - loaded.numTensors} tensors in ${RUNS} runs`);
  assert.equal(after.numBytes, loaded.numBytes, `tfjs-node leaked ${after.numBytes - loaded.numBytes} bytes in ${RUNS} runs`);
  await session.dispose();
  // Weights, constants and folded plans were all tensors; none may outlive the session.
  assert.ok(loaded.numTensors > 0);
  assert.equal(tf.memory().numTensors, 0, 'tfjs-node left tensors behind after dispose');
});
