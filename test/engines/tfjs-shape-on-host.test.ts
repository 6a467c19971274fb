import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import { attr, OnnxModelBuilder } from '../../src/core/onnx/onnx-builder.js';
import { hostTensor } from '../../src/core/tensor.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import { randomFloats, runOnnxRuntime } from '../helpers/tfjs-op-harness.js';

test('shape arithmetic (Shape, Gather, Unsqueeze, Concat, Slice, Mul, Cast) runs on the host: Reshape never reads back from the device', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-tfjs-'));
  after(() => rm(dir, { recursive: true, force: true }));
  const g = new OnnxModelBuilder({ opset: 14 });
  const x = g.addInput('x', 'float32', ['batch', 'sequence', 8]);
  const i64 = (values: number[]) => hostTensor('int64', [values.length], BigInt64Array.from(values, BigInt));
  const shape = g.op('Shape', [x]);
  const batch = g.op('Gather', [shape, g.constant(hostTensor('int64', [], new BigInt64Array([0n])))], { axis: attr.int(0) });
  const seqAndHidden = g.op('Slice', [shape, g.constant(i64([1])), g.constant(i64([3]))]);
  const seq = g.op('Gather', [seqAndHidden, g.constant(hostTensor('int64', [], new BigInt64Array([0n])))]);
  const doubled = g.op('Cast', [g.op('Mul', [g.op('Cast', [seq], { to: attr.int(1) }), g.constant(hostTensor('float32', [], new Float32Array([2])))])], { to: attr.int(7) });
  const unsq = (v: string) => g.op('Unsqueeze', [v, g.constant(i64([0]))]);
  const target = g.op('Concat', [unsq(batch), unsq(doubled), g.constant(i64([-1]))], { axis: attr.int(0) });
  g.addNode({ opType: 'Reshape', inputs: [x, target], outputs: ['y'] });
  g.addOutput('y', 'float32', ['batch', 'double_sequence', 4]);
  const bytes = g.encode();
  const path = join(dir, 'shape.onnx');
  await writeFile(path, bytes);

  const feeds = { x: randomFloats([2, 3, 8]) };
  const want = (await runOnnxRuntime(bytes, feeds))['y'];
  for (const backend of ['cpu', 'wasm'] as const) {
    const session = await createTfjsEngine(backend).open(path, { threads: null, precision: 'fp32' });
    const proto = tf.Tensor.prototype as unknown as { dataSync: () => unknown };
    const original = proto.dataSync;
    let reads = 0;
    proto.dataSync = function (this: tf.Tensor) {
      reads++;
      return original.call(this);
    };
    try {
      const y = (await session.run(feeds))['y'];
      assert.ok(y && want);
      assert.deepEqual([...y.dims], [2, 6, 4]);
      assert.deepEqual([...y.dims], [...want.dims]);
      assert.deepEqual(Array.from(y.data as Float32Array), want.values);
      assert.equal(reads, 0, `tfjs-${backend} read ${reads} tensors back synchronously during the run`);
    } finally {
      proto.dataSync = original;
      await session.dispose();
    }
  }
});
