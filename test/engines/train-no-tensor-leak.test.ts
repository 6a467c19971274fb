import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { tinyBatch, tinyTrainer } from '../helpers/tiny-trainable.js';

const STEPS = 1000;

for (const optimizer of ['sgd', 'adam'] as const) {
  test(`${STEPS} ${optimizer} training steps leave tf.memory() where the first step left it (no tensor leak), and the loss falls`, async () => {
    await tf.setBackend('cpu');
    const before = tf.memory();
    const trainer = tinyTrainer({ optimizer, learningRate: 0.05 });
    const { inputs, labels } = tinyBatch(4, 5);
    const first = await trainer.step(inputs, labels);
    // Adam makes its moment variables on the first update; from then on every step must free what it makes.
    const settled = trainer.memory();
    let last = first;
    for (let i = 1; i < STEPS; i++) last = await trainer.step(inputs, labels);
    const after = trainer.memory();
    assert.equal(after.numTensors, settled.numTensors, `tensors after step 1: ${settled.numTensors}, after step ${STEPS}: ${after.numTensors}`);
    assert.equal(after.numBytes, settled.numBytes);
    assert.ok(last.loss < first.loss, `loss ${first.loss} → ${last.loss} should fall on a repeated batch`);
    await trainer.reset();
    assert.equal(trainer.memory().numTensors, optimizer === 'sgd' ? settled.numTensors : settled.numTensors - 6, 'a reset frees the optimizer state');
    assert.equal((await trainer.step(inputs, labels)).loss, first.loss, 'a reset restarts from the initial weights');
    await trainer.dispose();
    assert.equal(tf.memory().numTensors, before.numTensors, 'dispose frees every tensor the trainer made');
  });
}
