/**
 * Point 11 of issue 22, training: each phase's clock stops only once its
 * results exist. On an asynchronous backend an op returns once its kernel is
 * queued and the wait comes at the first read, so forward must read its loss
 * before its clock stops; and the update's time holds the optimizer's work
 * only, not an extra reduction over a weight.
 *
 * The clock is a fake that moves only when the engine reads a tensor back
 * (standing for the wait of an asynchronous device) or runs a Sum kernel, so
 * nothing here is timed.
 */
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { tinyBatch, tinyTrainer } from '../helpers/tiny-trainable.js';

/** Runs `work` with performance.now() moved only by `advance`, which the patched engine calls. */
async function withFakeClock<T>(patch: (advance: (ms: number) => void) => () => void, work: () => Promise<T>): Promise<T> {
  let now = 0;
  const clock = mock.method(performance, 'now', () => now);
  const restore = patch((ms) => {
    now += ms;
  });
  try {
    return await work();
  } finally {
    restore();
    clock.mock.restore();
  }
}

type EngineLike = { readSync: (...a: unknown[]) => unknown; read: (...a: unknown[]) => Promise<unknown>; runKernel: (name: string, ...a: unknown[]) => unknown };

test('forward includes the wait for its loss; update holds no Sum over a weight', async () => {
  await tf.setBackend('cpu');
  const engine = tf.engine() as unknown as EngineLike;
  const { inputs, labels } = tinyBatch(4, 5);

  // A read back costs 500 ms: the forward clock must include the one that waits for the loss.
  const reads = await withFakeClock(
    (advance) => {
      const [readSync, read] = [engine.readSync, engine.read];
      engine.readSync = (...a) => (advance(500), readSync.apply(engine, a));
      engine.read = async (...a) => (advance(500), read.apply(engine, a));
      return () => Object.assign(engine, { readSync, read });
    },
    () => tinyTrainer({ optimizer: 'sgd', learningRate: 0.05 }).step(inputs, labels),
  );
  assert.equal(reads.forwardMs, 500, 'forward stops its clock after reading the loss back');

  // A Sum kernel costs 1000 ms: the update may not run one.
  const sums = await withFakeClock(
    (advance) => {
      const runKernel = engine.runKernel;
      engine.runKernel = (name, ...a) => (name === 'Sum' && advance(1000), runKernel.call(engine, name, ...a));
      return () => Object.assign(engine, { runKernel });
    },
    () => tinyTrainer({ optimizer: 'sgd', learningRate: 0.05 }).step(inputs, labels),
  );
  assert.equal(sums.updateMs, 0, 'no reduction inside the update');
});
