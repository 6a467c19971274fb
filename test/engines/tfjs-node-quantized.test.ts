import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import type { TensorMap } from '../../src/core/tensor.js';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import { f32 } from '../helpers/tfjs-op-harness.js';
import { checkQuantGraph } from '../helpers/quant-graph.js';
import { readHfFixture } from '../helpers/hf-fixtures.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

const skip = await tfjsNodeSkip();

/**
 * The quantized ops on libtensorflow: its Round must be half-to-even, its
 * float32 MatMul exact on the K chunks, and a quantize_dynamic file must give
 * onnx-cpu's logits within 1e-4, as on tfjs-cpu and tfjs-wasm.
 */
test('tfjs-node: DynamicQuantizeLinear ties and a K = 1024 MatMulInteger past 2^24 are bit-exact; bert q8 within 1e-4 of onnx-cpu', { skip }, async () => {
  const dql = { opType: 'DynamicQuantizeLinear', inputs: ['x'], outputs: ['xq', 'xs', 'xzp'] };
  await checkQuantGraph({
    title: 'node DQL ties',
    inputs: { x: f32([10], [0, 0.25, 0.75, 1.25, 1.75, 2.25, 126.75, 127.25, 127.5, 63.25]) },
    nodes: [dql],
    outputs: { xq: 'uint8', xs: 'float32', xzp: 'uint8' },
  }, ['node']);
  const k = 1024;
  await checkQuantGraph({
    title: 'node MatMulInteger K 1024',
    inputs: { x: f32([2, k], Array.from({ length: 2 * k }, (_, i) => (i % 7 === 0 ? 255 / 16 : ((i * 37) % 256) / 16))) },
    smallInts: { w: { type: 'uint8', dims: [k, 1], values: new Array<number>(k).fill(0) }, wzp: { type: 'uint8', dims: [1], values: [255] } },
    nodes: [dql, { opType: 'MatMulInteger', inputs: ['xq', 'w', 'xzp', 'wzp'], outputs: ['y'] }],
    outputs: { y: 'int32' },
  }, ['node']);

  const path = join(packageRoot(), 'test', 'data', 'quant', 'bert-dynamic', 'model.onnx');
  const feeds = readHfFixture('bert').feeds;
  const onnx = await createOnnxNodeEngine('cpu').open(path, { threads: 1, precision: 'int8' });
  const reference = await onnx.run(feeds).finally(() => onnx.dispose());
  const session = await createTfjsEngine('node').open(path, { threads: null, precision: 'int8' });
  try {
    const got = (await session.run(feeds)) as TensorMap;
    const want = reference['logits']?.data as Float32Array;
    const have = got['logits']?.data as Float32Array;
    assert.equal(have.length, want.length);
    let max = 0;
    for (let i = 0; i < want.length; i++) max = Math.max(max, Math.abs((have[i] as number) - (want[i] as number)));
    console.log(`bert-dynamic tfjs-node: max |Δ| vs onnx-cpu ${max}`);
    assert.ok(max <= 1e-4, `bert q8 on tfjs-node: max |Δ| ${max}`);
  } finally {
    await session.dispose();
  }
});
