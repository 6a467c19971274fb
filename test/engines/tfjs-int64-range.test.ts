import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import { OnnxModelBuilder } from '../../src/core/onnx/onnx-builder.js';
import { hostTensor } from '../../src/core/tensor.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';

test('int64 values outside the int32 range fail with an error naming the tensor, and leak nothing', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-tfjs-'));
  after(() => rm(dir, { recursive: true, force: true }));
  const g = new OnnxModelBuilder({ opset: 14 });
  const ids = g.addInput('input_ids', 'int64', ['batch', 3]);
  const offset = g.addInitializer('big_offset', hostTensor('int64', [1], new BigInt64Array([5_000_000_000n])));
  const small = g.addInitializer('small_offset', hostTensor('int64', [1], new BigInt64Array([2n])));
  g.addNode({ opType: 'Add', inputs: [ids, small], outputs: ['ok'] });
  g.addNode({ opType: 'Add', inputs: [ids, offset], outputs: ['shifted'] });
  g.addOutput('ok', 'int64', ['batch', 3]);
  g.addOutput('shifted', 'int64', ['batch', 3]);
  const path = join(dir, 'int64.onnx');
  await writeFile(path, g.encode());

  const session = await createTfjsEngine('cpu').open(path, { threads: null, precision: 'fp32' });
  try {
    const tensorsBefore = tf.memory().numTensors;
    const fed = (values: bigint[]) => ({ input_ids: hostTensor('int64', [1, 3], BigInt64Array.from(values)) });
    await assert.rejects(session.run(fed([1n, 3_000_000_000n, 2n])), (err: Error) => {
      assert.match(err.message, /'input_ids'/);
      assert.match(err.message, /3000000000/);
      assert.match(err.message, /int32/);
      return true;
    });
    // The initializer is only converted when an op needs it as a tfjs tensor; the error names it then.
    await assert.rejects(session.run(fed([1n, 2n, 3n])), /'big_offset'.*5000000000/);
    assert.equal(tf.memory().numTensors, tensorsBefore, 'a failed run must not leak tensors');
  } finally {
    await session.dispose();
  }
});
