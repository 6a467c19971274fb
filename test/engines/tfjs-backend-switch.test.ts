import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import { toNumbers } from '../../src/core/tensor.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import { bertBatch, bertModelDir } from '../helpers/tfjs-bert.js';

test('a tfjs session switches the global tfjs backend back to its own before each run', async () => {
  const dir = await bertModelDir();
  const path = join(dir, 'onnx', 'model.onnx');
  const feeds = await bertBatch(dir, ['A wonderful film!', 'Loud.']);
  const cpu = await createTfjsEngine('cpu').open(path, { threads: null, precision: 'fp32' });
  const wasm = await createTfjsEngine('wasm').open(path, { threads: null, precision: 'fp32' });
  try {
    assert.equal(tf.getBackend(), 'wasm', 'the last open leaves its backend active');
    const fromCpu = toNumbers((await cpu.run(feeds))['logits']!);
    assert.equal(tf.getBackend(), 'cpu');
    const fromWasm = toNumbers((await wasm.run(feeds))['logits']!);
    assert.equal(tf.getBackend(), 'wasm');
    const again = toNumbers((await cpu.run(feeds))['logits']!);
    assert.deepEqual(again, fromCpu, 'tfjs-cpu must give the same logits after tfjs-wasm ran');
    fromWasm.forEach((v, i) => assert.ok(Math.abs(v - (fromCpu[i] as number)) < 1e-5));
    assert.equal(cpu.describe().backend, 'cpu');
    assert.equal(wasm.describe().backend, 'wasm');
  } finally {
    await cpu.dispose();
    await wasm.dispose();
  }
});
