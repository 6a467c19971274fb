import { test } from 'node:test';
import assert from 'node:assert/strict';
import { attr } from '../../src/core/onnx/onnx-builder.js';
import { f32, randomFloats } from '../helpers/tfjs-op-harness.js';
import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { checkQuantGraph, buildQuantGraph, randomInts } from '../helpers/quant-graph.js';
import { TfjsGraphExecutor } from '../../engines/tfjs/graph-executor.js';
import { parseOnnxModel } from '../../src/core/onnx/onnx-decode.js';
import { chunkSizes, exactChunk } from '../../engines/tfjs/ops-quantized.js';

const dql = (x: string): { opType: string; inputs: string[]; outputs: string[] } => ({ opType: 'DynamicQuantizeLinear', inputs: [x], outputs: [`${x}_q`, `${x}_s`, `${x}_zp`] });

test('exact K chunks: partial sums of 8-bit products stay within 2^24', () => {
  assert.equal(exactChunk(255, 255), 258);
  assert.equal(exactChunk(255, 128), 514);
  assert.deepEqual(chunkSizes(768, 514), [384, 384]);
  assert.deepEqual(chunkSizes(100, 258), [100]);
  assert.deepEqual(chunkSizes(1030, 258), [258, 258, 258, 256]);
});

test('MatMulInteger after DynamicQuantizeLinear, constant uint8 weights with per-column zero points: int32 result bit-exact', async () => {
  const k = 48;
  const n = 5;
  await checkQuantGraph({
    title: 'MatMulInteger u8 weights',
    inputs: { x: randomFloats([2, 3, k]) },
    smallInts: { w: { type: 'uint8', dims: [k, n], values: randomInts(k * n, 0, 255) }, wzp: { type: 'uint8', dims: [n], values: [128, 0, 255, 7, 128] } },
    nodes: [dql('x'), { opType: 'MatMulInteger', inputs: ['x_q', 'w', 'x_zp', 'wzp'], outputs: ['y'] }],
    outputs: { y: 'int32' },
  });
});

/**
 * int8 weights stay in [−64, 63] (onnxruntime's reduce_range): with full-range int8 weights,
 * onnxruntime's x86 u8s8 kernel without AVX-VNNI sums pairs of products in saturating int16
 * (vpmaddubsw) and is itself off the exact result, which tfjs computes.
 */
test('MatMulInteger with int8 weights and a scalar int8 zero point, then Cast and Mul as quantize_dynamic writes it', async () => {
  const k = 40;
  const n = 6;
  await checkQuantGraph({
    title: 'MatMulInteger s8 weights to float',
    inputs: { x: randomFloats([3, k], -1, 4) },
    initializers: { ws: randomFloats([n], 0.001, 0.02) },
    smallInts: { w: { type: 'int8', dims: [k, n], values: randomInts(k * n, -64, 63) }, wzp: { type: 'int8', dims: [], values: [-3] } },
    nodes: [
      dql('x'),
      { opType: 'MatMulInteger', inputs: ['x_q', 'w', 'x_zp', 'wzp'], outputs: ['acc'] },
      { opType: 'Cast', inputs: ['acc'], outputs: ['accf'], attributes: { to: attr.int(1) } },
      { opType: 'Mul', inputs: ['x_s', 'ws'], outputs: ['s'] },
      { opType: 'Mul', inputs: ['accf', 's'], outputs: ['y'] },
    ],
    outputs: { acc: 'int32', y: 'float32' },
  });
});

test('MatMulInteger with K = 1024 and extreme operands stays exact (sums far beyond 2^24)', async () => {
  const k = 1024;
  const n = 3;
  // x ≥ 0 with its maximum at 255·2⁻⁴, so A spans 0..255 with zero point 0; B = 0 with zero point 255 gives B − zb = −255.
  const x = Array.from({ length: 2 * k }, (_, i) => (i % 7 === 0 ? 255 / 16 : ((i * 37) % 256) / 16));
  await checkQuantGraph({
    title: 'MatMulInteger K 1024 extreme',
    inputs: { x: f32([2, k], x) },
    smallInts: { w: { type: 'uint8', dims: [k, n], values: new Array<number>(k * n).fill(0).map((_, i) => (i % n === 2 ? 255 : 0)) }, wzp: { type: 'uint8', dims: [n], values: [255, 0, 1] } },
    nodes: [dql('x'), { opType: 'MatMulInteger', inputs: ['x_q', 'w', 'x_zp', 'wzp'], outputs: ['y'] }],
    outputs: { y: 'int32' },
  });
});

test('MatMulInteger with both operands computed at run time (K = 2048), and with the constant uint8 operand on the left', async () => {
  const k = 2048;
  await checkQuantGraph({
    title: 'MatMulInteger runtime operands',
    // x > 0 and w < 0: A − za ≥ 0 and B − zb ≤ 0 everywhere, so the sums (about −2^25) overflow float32's exact range.
    inputs: { x: randomFloats([4, k], 0.01, 6), w: randomFloats([k, 3], -5, -0.01) },
    nodes: [dql('x'), dql('w'), { opType: 'MatMulInteger', inputs: ['x_q', 'w_q', 'x_zp', 'w_zp'], outputs: ['y'] }],
    outputs: { y: 'int32' },
  });
  await checkQuantGraph({
    title: 'MatMulInteger constant A',
    inputs: { x: randomFloats([300, 2], -1, 1) },
    smallInts: { a: { type: 'uint8', dims: [3, 300], values: randomInts(900, 0, 255, 3) }, azp: { type: 'uint8', dims: [], values: [131] } },
    nodes: [dql('x'), { opType: 'MatMulInteger', inputs: ['a', 'x_q', 'azp', 'x_zp'], outputs: ['y'] }],
    outputs: { y: 'int32' },
  });
});

test('DynamicQuantizeLinear → MatMulInteger → Cast → Mul, folded at open, stays bit-exact with 2 chunks (float sum) and 4 chunks (int32 sum), sums past 2^24', async () => {
  const k = 1024;
  const x = f32([2, k], Array.from({ length: 2 * k }, (_, i) => (i % 5 === 0 ? 255 / 8 : ((i * 53) % 256) / 8)));
  // |B − zb| ≤ 128 → chunks of 512 (two); |B − zb| up to 255 → chunks of 256 (four), where summing chunk results in
  // float32 would round more than once (the int32 sum is made first).
  const n = 16;
  for (const [title, lo, hi, zp] of [['two chunks', 0, 60, 128], ['four chunks', 0, 60, 255]] as const) {
    const graph = {
      title: `MatMulInteger Cast Mul ${title}`,
      inputs: { x },
      initializers: { ws: randomFloats([n], 0.001, 0.5) },
      smallInts: { w: { type: 'uint8' as const, dims: [k, n], values: randomInts(k * n, lo, hi, 17) }, wzp: { type: 'uint8' as const, dims: [n], values: new Array<number>(n).fill(zp) } },
      nodes: [
        dql('x'),
        { opType: 'MatMulInteger', inputs: ['x_q', 'w', 'x_zp', 'wzp'], outputs: ['acc'] },
        { opType: 'Cast', inputs: ['acc'], outputs: ['accf'], attributes: { to: attr.int(1) } },
        { opType: 'Mul', inputs: ['x_s', 'ws'], outputs: ['s'] },
        { opType: 'Mul', inputs: ['accf', 's'], outputs: ['y'] },
      ],
      outputs: { y: 'float32' as const },
    };
    await checkQuantGraph(graph);
    await tf.setBackend('cpu');
    const executor = new TfjsGraphExecutor(parseOnnxModel(buildQuantGraph(graph)));
    try {
      await executor.run({ x });
      // DynamicQuantizeLinear hands the matmul A − za as float32; Cast and Mul are folded into the matmul.
      assert.deepEqual(executor.lastRunNodes().filter((n) => /Quantize|MatMulInteger|Cast/.test(n)), ['DynamicQuantizeLinear_0+center', 'MatMulInteger_0+cast+scale'], title);
    } finally {
      executor.dispose();
    }
  }
});
