import { test } from 'node:test';
import { f32, randomFloats } from '../helpers/tfjs-op-harness.js';
import { checkQuantGraph } from '../helpers/quant-graph.js';
import type { HostTensor } from '../../src/core/tensor.js';

/** DynamicQuantizeLinear of `x`, all three outputs compared bit for bit with onnxruntime. */
async function check(title: string, x: HostTensor): Promise<void> {
  await checkQuantGraph({
    title,
    inputs: { x },
    nodes: [{ opType: 'DynamicQuantizeLinear', inputs: ['x'], outputs: ['y', 'scale', 'zp'] }],
    outputs: { y: 'uint8', scale: 'float32', zp: 'uint8' },
  });
}

test('DynamicQuantizeLinear matches onnxruntime on random data (scale rounded in float32)', async () => {
  await check('DQL random', randomFloats([4, 33], -3, 5));
  await check('DQL random, mostly negative', randomFloats([2, 17], -7, 0.2));
});

test('DynamicQuantizeLinear rounds x / scale half to even', async () => {
  // max − min = 127.5, so scale = 0.5 exactly and x / scale lands on .5 ties; zero point 0.
  await check('DQL ties, zero point 0', f32([10], [0, 0.25, 0.75, 1.25, 1.75, 2.25, 126.75, 127.25, 127.5, 63.25]));
  // −min / scale = 128.5 is itself a tie: the zero point rounds to 128.
  await check('DQL ties in the zero point', f32([8], [-64.25, -0.25, -0.75, 0.25, 0.75, 10.25, 63.25, 0]));
});

test('DynamicQuantizeLinear: all-zero input (scale 1), all-negative (zero point 255), all-positive (zero point 0)', async () => {
  await check('DQL zeros', f32([2, 3], [0, 0, 0, 0, 0, 0]));
  await check('DQL all negative', f32([5], [-1, -2.5, -0.1, -3.3, -0.001]));
  await check('DQL all positive', f32([5], [1, 2.5, 0.1, 3.3, 0.001]));
});
