import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as ort from 'onnxruntime-node';
import { attr, OnnxModelBuilder } from '../../src/core/onnx/onnx-builder.js';
import { decodeModel } from '../../src/core/onnx/onnx-proto.js';
import { hostTensor } from '../../src/core/tensor.js';

test('OnnxModelBuilder writes a small graph with initializers, a Constant and attributes that onnxruntime runs', async () => {
  const g = new OnnxModelBuilder({ opset: 14 });
  const x = g.addInput('x', 'float32', ['batch', 3]);
  const bias = g.addInitializer('bias', hostTensor('float32', [3], new Float32Array([1, 2, 3])));
  const scale = g.constant(hostTensor('float32', [], new Float32Array([2])));
  const axes = g.addInitializer('axes', hostTensor('int64', [1], new BigInt64Array([-1n])));
  const scaled = g.op('Mul', [g.op('Add', [x, bias]), scale]);
  g.addNode({ opType: 'Softmax', inputs: [scaled], outputs: ['probs'], attributes: { axis: attr.int(-1) } });
  g.addNode({ opType: 'Unsqueeze', inputs: [scaled, axes], outputs: ['expanded'] });
  g.addOutput('probs', 'float32', ['batch', 3]);
  g.addOutput('expanded', 'float32', ['batch', 3, 1]);
  assert.throws(() => g.op('Relu', ['missing']), /missing/, 'reading an undefined value must fail early');

  const bytes = g.encode();
  const decoded = decodeModel(bytes);
  assert.equal(Number(decoded.irVersion), 8);
  assert.equal(decoded.graph?.input?.[0]?.type?.tensorType?.shape?.dim?.[0]?.dimParam, 'batch');

  const session = await ort.InferenceSession.create(bytes);
  try {
    const out = await session.run({ x: new ort.Tensor('float32', new Float32Array([0, 0, 0, 1, 1, 1]), [2, 3]) });
    assert.deepEqual(out['expanded']?.dims, [2, 3, 1]);
    assert.deepEqual([...(out['expanded']?.data as Float32Array)], [2, 4, 6, 4, 6, 8]);
    const probs = out['probs']?.data as Float32Array;
    assert.ok(Math.abs((probs[0] as number) + (probs[1] as number) + (probs[2] as number) - 1) < 1e-6);
  } finally {
    await session.release();
  }
});
