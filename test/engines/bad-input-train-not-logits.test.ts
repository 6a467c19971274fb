import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { UserError } from '../../src/core/errors.js';
import { tinyBatch, tinyClassifierModel, tinyTrainer } from '../helpers/tiny-trainable.js';

test('training a model whose output is not logits over the labels fails with the shape found', async () => {
  await tf.setBackend('cpu');
  const trainer = tinyTrainer({ optimizer: 'sgd', learningRate: 0.01 }, tinyClassifierModel({ pooled: false }));
  const { inputs, labels } = tinyBatch(3, 4);
  await assert.rejects(trainer.step(inputs, labels), (err: unknown) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /the model's output 'logits' has shape \[3, 4, 2\], not logits over the labels \(\[3, ≥2\] for this batch\)/);
    assert.match(err.fix ?? '', /logits \[batch, labels\]/);
    return true;
  });
  // Labels beyond the model's classes are the same mistake: logits over 2 classes cannot score label 5.
  const good = tinyTrainer({ optimizer: 'sgd', learningRate: 0.01 });
  await assert.rejects(good.step(inputs, Int32Array.from([0, 5, 1])), /has shape \[3, 2\], not logits over the labels \(\[3, ≥6\]/);
  await trainer.dispose();
  await good.dispose();
});
