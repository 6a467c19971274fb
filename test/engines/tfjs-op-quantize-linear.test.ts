import { test } from 'node:test';
import { attr } from '../../src/core/onnx/onnx-builder.js';
import { f32, randomFloats } from '../helpers/tfjs-op-harness.js';
import { checkQuantGraph, type SmallInts } from '../helpers/quant-graph.js';
import type { HostTensor } from '../../src/core/tensor.js';

/** Ties (x / scale = k + ½), values that saturate at both ends, and zeros. */
const TIES = f32([12], [0.25, 0.75, -0.25, -0.75, 1.25, -1.25, 63.75, -64.25, 1000, -1000, 0, 31.75]);

async function quantize(title: string, x: HostTensor, scale: HostTensor, zp: SmallInts | undefined, opset = 13, attributes = {}): Promise<void> {
  await checkQuantGraph({
    title,
    opset,
    inputs: { x },
    initializers: { scale },
    ...(zp ? { smallInts: { zp } } : {}),
    nodes: [{ opType: 'QuantizeLinear', inputs: zp ? ['x', 'scale', 'zp'] : ['x', 'scale'], outputs: ['y'], attributes }],
    outputs: { y: zp?.type ?? 'uint8' },
  });
}

test('QuantizeLinear per tensor: round half to even and saturation, uint8 and int8', async () => {
  await quantize('Q uint8 ties', TIES, f32([], [0.5]), { type: 'uint8', dims: [], values: [128] });
  await quantize('Q int8 ties', TIES, f32([], [0.5]), { type: 'int8', dims: [], values: [-3] });
  await quantize('Q random int8', randomFloats([3, 7], -4, 4), f32([], [0.0313]), { type: 'int8', dims: [], values: [0] });
});

test('QuantizeLinear without a zero point writes uint8 around 0 (opset 10 form too)', async () => {
  await quantize('Q no zero point', TIES, f32([], [0.5]), undefined);
  await quantize('Q opset 10', randomFloats([2, 5], -1, 3), f32([], [0.02]), { type: 'uint8', dims: [], values: [10] }, 10);
});

test('QuantizeLinear per axis (axis 1 and axis 0), int8 and uint8', async () => {
  await quantize('Q per axis 1', randomFloats([2, 3, 4], -3, 3), f32([3], [0.01, 0.05, 0.5]), { type: 'int8', dims: [3], values: [0, 5, -7] }, 13, { axis: attr.int(1) });
  await quantize('Q per axis 0', randomFloats([4, 5], -3, 3), f32([4], [0.5, 0.25, 0.02, 1]), { type: 'uint8', dims: [4], values: [128, 0, 255, 3] }, 13, { axis: attr.int(0) });
});

test('QuantizeLinear per block (opset 21 block_size)', async () => {
  await quantize('Q blocked', randomFloats([2, 8], -3, 3), f32([2, 2], [0.01, 0.05, 0.5, 0.1]), { type: 'int8', dims: [2, 2], values: [0, 1, -2, 3] }, 21, { axis: attr.int(1), block_size: attr.int(4) });
});
