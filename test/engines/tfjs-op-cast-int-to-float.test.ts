import { test } from 'node:test';
import { hostTensor } from '../../src/core/tensor.js';
import { f32 } from '../helpers/tfjs-op-harness.js';
import { checkQuantGraph } from '../helpers/quant-graph.js';

test('Cast int32 → float rounds to float32 before the next op on every backend (tfjs-cpu kept the int32 data)', async () => {
  // 2^24 + 1 and friends are not float32 values: Cast must round them before Mul rounds again, as onnxruntime does.
  const big = [16777217, -16777219, 33554435, 2147483647, -35434362, 7];
  await checkQuantGraph({
    title: 'Cast int32 to float then Mul',
    // Fed, so they are a device tensor (constants this small would be computed on the host).
    inputs: { i: hostTensor('int32', [big.length], Int32Array.from(big)), s: f32([1], [0.0123]) },
    nodes: [
      { opType: 'Cast', inputs: ['i'], outputs: ['f'], attributes: { to: { type: 'int', value: 1 } } },
      { opType: 'Mul', inputs: ['f', 's'], outputs: ['y'] },
    ],
    outputs: { y: 'float32' },
  });
});
