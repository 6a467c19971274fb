import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { TfjsBackend } from '../../src/core/engine.js';
import type { TensorMap } from '../../src/core/tensor.js';
import { packageRoot } from '../../src/core/package-info.js';
import * as ortNode from 'onnxruntime-node';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import { readHfFixture } from '../helpers/hf-fixtures.js';

/**
 * onnxruntime.quantization outputs of Hugging Face fixtures
 * (tools/make-qdq-fixture.py): quantize_dynamic graphs with MatMulInteger on
 * weights and on two activations (attention), Gemm heads left in fp32, GPT-2's
 * tied embedding; and a QDQ (quantize_static, per-channel) graph. Each runs on
 * tfjs-cpu and tfjs-wasm and is compared with onnx-cpu on the same file.
 *
 * q8 (dynamic) is exact and held to 1e-4. QDQ is not: onnxruntime fuses
 * DequantizeLinear → MatMul → QuantizeLinear into integer kernels
 * (QLinearMatMul and friends) that requantize with their own rounding, while
 * tfjs runs the graph as written (float ops between Q/DQ pairs), so an
 * activation landing near a rounding boundary can move one quantization step.
 */
const CASES: readonly { readonly name: string; readonly arch: string; readonly tolerance: number }[] = [
  { name: 'bert-dynamic', arch: 'bert', tolerance: 1e-4 },
  { name: 'gpt2-dynamic', arch: 'gpt2', tolerance: 1e-4 },
  // The QDQ logits are themselves quantized (steps of ~0.0056); the fused kernels land 1–3 steps away (0.014 measured).
  { name: 'bert-qdq', arch: 'bert', tolerance: 0.05 },
];

function maxAbsDiff(a: TensorMap, b: TensorMap): number {
  let max = 0;
  const floats = Object.entries(b).filter(([, t]) => t.dtype === 'float32');
  assert.ok(floats.length > 0, 'no float output to compare');
  for (const [name, t] of floats) {
    const x = a[name]?.data as Float32Array;
    assert.equal(x.length, t.data.length, `output ${name} length`);
    for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs((x[i] as number) - ((t.data as Float32Array)[i] as number)));
  }
  return max;
}

/** onnxruntime-node with graph optimizations off: QDQ nodes then run one by one in float, as the graph states. */
async function runUnoptimized(path: string, feeds: TensorMap): Promise<TensorMap> {
  const session = await ortNode.InferenceSession.create(path, { graphOptimizationLevel: 'disabled' });
  try {
    const ortFeeds: Record<string, ortNode.Tensor> = {};
    for (const [name, t] of Object.entries(feeds)) ortFeeds[name] = new ortNode.Tensor(t.dtype, t.data, [...t.dims]);
    const out = await session.run(ortFeeds);
    const result: TensorMap = {};
    for (const [name, t] of Object.entries(out)) if (t.type === 'float32') result[name] = { dtype: 'float32', dims: t.dims, data: t.data as Float32Array };
    return result;
  } finally {
    await session.release();
  }
}

test('QDQ fixture runs on tfjs within 1e-4 of onnxruntime with graph optimizations off (Q/DQ evaluated as written)', async () => {
  const path = join(packageRoot(), 'test', 'data', 'quant', 'bert-qdq', 'model.onnx');
  const feeds = readHfFixture('bert').feeds;
  const reference = await runUnoptimized(path, feeds);
  for (const backend of ['cpu', 'wasm'] as TfjsBackend[]) {
    const session = await createTfjsEngine(backend).open(path, { threads: null, precision: 'int8' });
    try {
      const diff = maxAbsDiff(await session.run(feeds), reference);
      console.log(`bert-qdq tfjs-${backend}: max |Δ| vs unoptimized onnxruntime ${diff}`);
      assert.ok(diff <= 1e-4, `bert-qdq on tfjs-${backend}: max |Δ| ${diff} vs unoptimized onnxruntime`);
    } finally {
      await session.dispose();
    }
  }
});

for (const c of CASES) {
  test(`quantized HF fixture ${c.name} runs on tfjs-cpu and tfjs-wasm within ${c.tolerance} of onnx-cpu`, async () => {
    const path = join(packageRoot(), 'test', 'data', 'quant', c.name, 'model.onnx');
    const feeds = readHfFixture(c.arch).feeds;
    const ort = await createOnnxNodeEngine('cpu').open(path, { threads: 1, precision: 'int8' });
    const reference = await ort.run(feeds);
    await ort.dispose();
    for (const backend of ['cpu', 'wasm'] as TfjsBackend[]) {
      const session = await createTfjsEngine(backend).open(path, { threads: null, precision: 'int8' });
      try {
        const diff = maxAbsDiff(await session.run(feeds), reference);
        console.log(`${c.name} tfjs-${backend}: max |Δ| vs onnx-cpu ${diff}`);
        assert.ok(diff <= c.tolerance, `${c.name} on tfjs-${backend}: max |Δ| ${diff} vs onnx-cpu`);
      } finally {
        await session.dispose();
      }
    }
  });
}
