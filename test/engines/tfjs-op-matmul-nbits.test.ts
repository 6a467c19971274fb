import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attr, type NodeSpec } from '../../src/core/onnx/onnx-builder.js';
import { randomFloats } from '../helpers/tfjs-op-harness.js';
import { checkQuantGraph, randomInts } from '../helpers/quant-graph.js';
import { dequantizeNBits } from '../../engines/tfjs/nbits-dequantize.js';

/**
 * MatMulNBits runs on tfjs as a MatMul by its weight dequantized to fp32 at
 * open; onnxruntime's fp32 path (accuracy_level 0) sums in its own blocked
 * order, so outputs agree to float32 rounding, not bit for bit.
 */
const TOLERANCE = 1e-5;

function nbits(k: number, n: number, block: number, extra: { zp?: boolean; bias?: boolean } = {}): Parameters<typeof checkQuantGraph>[0] {
  const blocks = Math.ceil(k / block);
  const inputs = ['a', 'b', 'scales', extra.zp ? 'zp' : '', '', extra.bias ? 'bias' : ''];
  while (inputs[inputs.length - 1] === '') inputs.pop();
  const node: NodeSpec = {
    opType: 'MatMulNBits',
    domain: 'com.microsoft',
    inputs,
    outputs: ['y'],
    attributes: { K: attr.int(k), N: attr.int(n), bits: attr.int(4), block_size: attr.int(block) },
  };
  return {
    title: `MatMulNBits K${k} N${n} block ${block}${extra.zp ? ' zp' : ''}${extra.bias ? ' bias' : ''}`,
    inputs: { a: randomFloats([2, 3, k]) },
    initializers: { scales: randomFloats([n * blocks], 0.01, 0.2), ...(extra.bias ? { bias: randomFloats([n]) } : {}) },
    smallInts: {
      b: { type: 'uint8', dims: [n, blocks, block / 2], values: randomInts(n * blocks * (block / 2), 0, 255, 5) },
      ...(extra.zp ? { zp: { type: 'uint8' as const, dims: [n * Math.ceil(blocks / 2)], values: randomInts(n * Math.ceil(blocks / 2), 0, 255, 9) } } : {}),
    },
    nodes: [node],
    outputs: { y: 'float32' },
    tolerance: TOLERANCE,
  };
}

test('MatMulNBits dequantization unpacks low nibble first, per column and block, default zero point 8', () => {
  // One column, K = 16 (one block): bytes 0x21, 0x43, … hold q = 1, 2, 3, 4, …; scale 0.5.
  const packed = [0x21, 0x43, 0x65, 0x87, 0xa9, 0xcb, 0xed, 0x0f];
  const w = dequantizeNBits({ packed, scales: [0.5], zeroPoints: undefined, k: 16, n: 1, bits: 4, blockSize: 16 });
  assert.deepEqual([...w], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0].map((q) => (q - 8) * 0.5));
  const withZp = dequantizeNBits({ packed, scales: [1], zeroPoints: [0x03], k: 16, n: 1, bits: 4, blockSize: 16 });
  assert.equal(withZp[0], 1 - 3);
});

test('MatMulNBits (4-bit, block 32 and 16, K not a multiple of the block) matches onnxruntime within 1e-5', async () => {
  await checkQuantGraph(nbits(64, 5, 32));
  await checkQuantGraph(nbits(40, 3, 16));
});

test('MatMulNBits with packed uint8 zero points and a bias', async () => {
  await checkQuantGraph(nbits(48, 4, 16, { zp: true }));
  await checkQuantGraph(nbits(64, 6, 32, { zp: true, bias: true }));
});
