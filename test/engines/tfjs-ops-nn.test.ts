import { test } from 'node:test';
import { attr } from '../../src/core/onnx/onnx-builder.js';
import { checkOpCase, f32, i64, randomFloats, type OpCase } from '../helpers/tfjs-op-harness.js';

const x = randomFloats([2, 3, 4]);

const cases: OpCase[] = [
  { title: 'MatMul 2-D', opType: 'MatMul', inputs: { a: randomFloats([3, 4]), b: randomFloats([4, 5]) } },
  { title: 'MatMul 3-D by 2-D weights', opType: 'MatMul', inputs: { a: x }, initializers: { w: randomFloats([4, 6]) } },
  { title: 'MatMul 4-D by 4-D (attention scores)', opType: 'MatMul', inputs: { a: randomFloats([2, 3, 5, 4]), b: randomFloats([2, 3, 4, 5]) } },
  { title: 'MatMul broadcasting batch dims', opType: 'MatMul', inputs: { a: randomFloats([2, 1, 3, 4]), b: randomFloats([1, 5, 4, 2]) } },
  { title: 'MatMul 3-D by 4-D', opType: 'MatMul', inputs: { a: randomFloats([3, 2, 4]), b: randomFloats([2, 1, 4, 5]) } },
  { title: 'MatMul vector by matrix', opType: 'MatMul', inputs: { a: randomFloats([4]), b: randomFloats([4, 3]) } },
  { title: 'MatMul matrix by vector', opType: 'MatMul', inputs: { a: randomFloats([2, 3, 4]), b: randomFloats([4]) } },
  {
    title: 'Gemm with transB, alpha, beta and bias',
    opType: 'Gemm',
    inputs: { a: randomFloats([3, 4]) },
    initializers: { b: randomFloats([5, 4]), c: randomFloats([5]) },
    attributes: { transB: attr.int(1), alpha: attr.float(0.5), beta: attr.float(2) },
  },
  // The classifier-head forms: fused bias without transB, and transB with bias (which tfjs-wasm's fused kernel gets wrong).
  { title: 'Gemm with 1-D bias', opType: 'Gemm', inputs: { a: randomFloats([3, 4]) }, initializers: { b: randomFloats([4, 5]), c: randomFloats([5]) } },
  { title: 'Gemm with transB and 1-D bias', opType: 'Gemm', inputs: { a: randomFloats([3, 4]) }, initializers: { b: randomFloats([5, 4]), c: randomFloats([5]) }, attributes: { transB: attr.int(1) } },
  { title: 'Gemm with transA, no bias', opType: 'Gemm', inputs: { a: randomFloats([4, 3]), b: randomFloats([4, 2]) }, attributes: { transA: attr.int(1) } },
  { title: 'Softmax last axis (opset 13)', opType: 'Softmax', opset: 13, inputs: { a: x } },
  { title: 'Softmax middle axis (opset 13)', opType: 'Softmax', opset: 13, inputs: { a: x }, attributes: { axis: attr.int(1) } },
  { title: 'Softmax coerced to 2-D (opset 11)', opType: 'Softmax', opset: 11, inputs: { a: x }, attributes: { axis: attr.int(1) } },
  { title: 'LogSoftmax (opset 13)', opType: 'LogSoftmax', opset: 13, inputs: { a: x } },
  {
    title: 'LayerNormalization (opset 17)',
    opType: 'LayerNormalization',
    opset: 17,
    inputs: { a: x },
    initializers: { g: randomFloats([4]), b: randomFloats([4]) },
    attributes: { epsilon: attr.float(1e-6) },
  },
  { title: 'LayerNormalization over two axes, no bias', opType: 'LayerNormalization', opset: 17, inputs: { a: x }, initializers: { g: randomFloats([3, 4]) }, attributes: { axis: attr.int(1) } },
  { title: 'ReduceMean attribute axes, keepdims 0', opType: 'ReduceMean', opset: 13, inputs: { a: x }, attributes: { axes: attr.ints([-1]), keepdims: attr.int(0) } },
  { title: 'ReduceMean all axes', opType: 'ReduceMean', opset: 13, inputs: { a: x } },
  { title: 'ReduceSum input axes (opset 13)', opType: 'ReduceSum', opset: 13, inputs: { a: x }, initializers: { axes: i64([2], [0, 2]) } },
  { title: 'ReduceSum int64', opType: 'ReduceSum', opset: 13, inputs: { a: i64([2, 2], [1, -2, 3, 40]) }, initializers: { axes: i64([1], [1]) }, outputs: ['int64'] },
  { title: 'ReduceMax input axes (opset 18)', opType: 'ReduceMax', opset: 18, inputs: { a: x }, initializers: { axes: i64([1], [1]) } },
  { title: 'ReduceMin', opType: 'ReduceMin', opset: 13, inputs: { a: x }, attributes: { axes: attr.ints([0]) } },
  { title: 'ReduceProd', opType: 'ReduceProd', opset: 13, inputs: { a: x }, attributes: { axes: attr.ints([2]) } },
  { title: 'ReduceSumSquare', opType: 'ReduceSumSquare', opset: 13, inputs: { a: x }, attributes: { axes: attr.ints([1]) } },
  { title: 'ReduceL2', opType: 'ReduceL2', opset: 13, inputs: { a: x }, attributes: { axes: attr.ints([1]) } },
  { title: 'ReduceLogSumExp', opType: 'ReduceLogSumExp', opset: 13, inputs: { a: x }, attributes: { axes: attr.ints([2]) } },
  { title: 'ArgMax keepdims 0', opType: 'ArgMax', inputs: { a: x }, attributes: { axis: attr.int(-1), keepdims: attr.int(0) }, outputs: ['int64'] },
  {
    title: 'ArgMax select_last_index',
    opType: 'ArgMax',
    inputs: { a: f32([2, 3], [1, 3, 3, 2, 2, 0]) },
    attributes: { axis: attr.int(1), select_last_index: attr.int(1) },
    outputs: ['int64'],
  },
  { title: 'ArgMin', opType: 'ArgMin', inputs: { a: x }, attributes: { axis: attr.int(1) }, outputs: ['int64'] },
];

test('linear-algebra, normalisation and reduction ops on tfjs-cpu and tfjs-wasm match onnxruntime-node', async (t) => {
  for (const c of cases) await t.test(c.title, () => checkOpCase(c));
});
