import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { attr, OnnxModelBuilder } from '../../src/core/onnx/onnx-builder.js';
import { hostTensor } from '../../src/core/tensor.js';
import { TfjsGraphExecutor } from '../../engines/tfjs/graph-executor.js';
import { parseOnnxModel } from '../../src/core/onnx/onnx-decode.js';
import { randomFloats, runOnnxRuntime } from '../helpers/tfjs-op-harness.js';

const i64 = (values: number[]) => hostTensor('int64', [values.length], BigInt64Array.from(values, BigInt));

/** x [batch, seq, 8] reshaped to [batch, seq * 2, 4] through the chain every HF export has. */
function shapeChainModel(): Uint8Array {
  const g = new OnnxModelBuilder({ opset: 14 });
  const x = g.addInput('x', 'float32', ['batch', 'sequence', 8]);
  const shape = g.op('Shape', [x], undefined, 'shape');
  const batch = g.op('Gather', [shape, g.constant(hostTensor('int64', [], new BigInt64Array([0n])))], { axis: attr.int(0) }, 'gather_batch');
  const seq = g.op('Gather', [shape, g.constant(hostTensor('int64', [], new BigInt64Array([1n])))], { axis: attr.int(0) }, 'gather_seq');
  const doubled = g.op('Mul', [seq, g.constant(hostTensor('int64', [], new BigInt64Array([2n])))], undefined, 'double');
  const target = g.op('Concat', [g.op('Unsqueeze', [batch, g.constant(i64([0]))], undefined, 'unsq_batch'), g.op('Unsqueeze', [doubled, g.constant(i64([0]))], undefined, 'unsq_seq'), g.constant(i64([-1]))], { axis: attr.int(0) }, 'concat');
  g.addNode({ opType: 'Reshape', inputs: [x, target], outputs: ['y'], name: 'reshape' });
  g.addOutput('y', 'float32', ['batch', 'double_sequence', 4]);
  return g.encode();
}

test('a Shape → Gather → Unsqueeze → Concat → Reshape chain runs once per input dims, then only the Reshape executes', async () => {
  await tf.setBackend('cpu');
  const bytes = shapeChainModel();
  const executor = new TfjsGraphExecutor(parseOnnxModel(bytes));
  try {
    for (const dims of [[2, 3, 8], [1, 5, 8]]) {
      const feeds = { x: randomFloats(dims) };
      const want = (await runOnnxRuntime(bytes, feeds))['y'];
      for (const run of ['first', 'second'] as const) {
        const y = (await executor.run(feeds))['y'];
        assert.ok(y && want);
        assert.deepEqual([...y.dims], [...want.dims], `${run} run at [${dims.join(',')}]`);
        assert.deepEqual(Array.from(y.data as Float32Array), want.values);
        const executed = executor.lastRunNodes();
        if (run === 'first') assert.ok(executed.includes('shape') && executed.includes('concat'), `first run at new dims evaluates the chain: ${executed.join(', ')}`);
        else assert.deepEqual(executed, ['reshape'], 'the second run with the same dims executes only the Reshape');
      }
    }
    // Back to the first dims: its folded plan is still cached.
    await executor.run({ x: randomFloats([2, 3, 8]) });
    assert.deepEqual(executor.lastRunNodes(), ['reshape']);
  } finally {
    executor.dispose();
  }
});

test('a Shape of a tensor whose dims depend on data (Reshape to a fed shape) is not folded', async () => {
  await tf.setBackend('cpu');
  const g = new OnnxModelBuilder({ opset: 14 });
  const x = g.addInput('x', 'float32', [6]);
  const s = g.addInput('s', 'int64', [2]);
  const shape = g.op('Shape', [g.op('Reshape', [x, s], undefined, 'reshape')], undefined, 'shape');
  g.addNode({ opType: 'Cast', inputs: [shape], outputs: ['dims'], attributes: { to: attr.int(1) }, name: 'cast' });
  g.addOutput('dims', 'float32', [2]);
  const executor = new TfjsGraphExecutor(parseOnnxModel(g.encode()));
  try {
    const x6 = randomFloats([6]);
    const first = await executor.run({ x: x6, s: i64([2, 3]) });
    assert.deepEqual(Array.from(first['dims']?.data as Float32Array), [2, 3]);
    // Same input dims, other shape values: a folded Shape would wrongly answer [2, 3] again.
    const second = await executor.run({ x: x6, s: i64([3, 2]) });
    assert.deepEqual(Array.from(second['dims']?.data as Float32Array), [3, 2]);
    assert.ok(executor.lastRunNodes().includes('shape'));
  } finally {
    executor.dispose();
  }
});
