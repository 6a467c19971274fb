import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OP_CLASS_OF, OP_CLASSES, TF_KERNEL_OPS, onnxOpOfKernel, opClassOf } from '../../src/core/op-taxonomy.js';

test('the taxonomy pins the classes of a transformer\'s op types, and an op type it lacks is other and unknown', () => {
  const expected: Record<string, string> = {
    MatMul: 'matmul', Gemm: 'matmul', FusedMatMul: 'matmul', MatMulNBits: 'matmul',
    Softmax: 'attention', Attention: 'attention', MultiHeadAttention: 'attention', GroupQueryAttention: 'attention',
    LayerNormalization: 'normalization', SkipLayerNormalization: 'normalization', LayerNormLastAxis: 'normalization',
    Gelu: 'activation', Erf: 'activation', Tanh: 'activation', Relu: 'activation',
    Add: 'elementwise', Mul: 'elementwise', Div: 'elementwise', Where: 'elementwise', Cast: 'elementwise',
    Gather: 'gather/embedding',
    Transpose: 'layout', Reshape: 'layout', Concat: 'layout', Slice: 'layout', Shape: 'layout', Unsqueeze: 'layout',
  };
  for (const [op, cls] of Object.entries(expected)) assert.deepEqual(opClassOf(op), { opClass: cls, known: true }, op);
  assert.deepEqual(opClassOf('NoSuchOp'), { opClass: 'other', known: false });
  assert.deepEqual(opClassOf('toString'), { opClass: 'other', known: false }, 'an Object.prototype name is no op type');
  assert.deepEqual([...OP_CLASSES], ['matmul', 'attention', 'normalization', 'activation', 'elementwise', 'gather/embedding', 'layout', 'other']);
  for (const cls of Object.values(OP_CLASS_OF)) assert.ok((OP_CLASSES as readonly string[]).includes(cls));
  assert.ok(Object.isFrozen(OP_CLASS_OF) && Object.isFrozen(TF_KERNEL_OPS));
});

test('tfjs kernels map to ONNX op types, each one the taxonomy knows; an unmapped kernel keeps its name', () => {
  assert.equal(onnxOpOfKernel('BatchMatMul'), 'MatMul');
  assert.equal(onnxOpOfKernel('_FusedMatMul'), 'MatMul');
  assert.equal(onnxOpOfKernel('BatchMatMulV2'), 'MatMul');
  assert.equal(onnxOpOfKernel('GatherV2'), 'Gather');
  assert.equal(onnxOpOfKernel('ExpandDims'), 'Unsqueeze');
  assert.equal(onnxOpOfKernel('SomeNewKernel'), 'SomeNewKernel');
  for (const [kernel, op] of Object.entries(TF_KERNEL_OPS)) assert.ok(opClassOf(op).known, `${kernel} → ${op}`);
});
