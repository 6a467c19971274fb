import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import { attr, OnnxModelBuilder } from '../../src/core/onnx/onnx-builder.js';
import { hostTensor, toNumbers, type HostTensor } from '../../src/core/tensor.js';
import { TfjsGraphExecutor } from '../../engines/tfjs/graph-executor.js';
import { parseOnnxModel } from '../../src/core/onnx/onnx-decode.js';
import { randomFloats, runOnnxRuntime, runTfjs } from '../helpers/tfjs-op-harness.js';

const f32 = (v: number): HostTensor => hostTensor('float32', [], new Float32Array([v]));

/** The exporter spellings the fusion pass looks for: LayerNorm (9 ops), GELU erf (5) and tanh (8), linear + bias + Relu; attention's Q·Kᵀ stays as it is. */
function patternsModel(): Uint8Array {
  const g = new OnnxModelBuilder({ opset: 13 });
  const x = g.addInput('x', 'float32', ['batch', 'sequence', 8]);
  const q = g.addInput('q', 'float32', ['batch', 2, 'sequence', 4]);
  const k = g.addInput('k', 'float32', ['batch', 'sequence', 2, 4]);
  const c = (v: number): string => g.constant(f32(v));
  // LayerNorm
  const mean = g.op('ReduceMean', [x], { axes: attr.ints([-1]) }, 'ln_mean');
  const d = g.op('Sub', [x, mean], undefined, 'ln_sub');
  const variance = g.op('ReduceMean', [g.op('Pow', [d, c(2)], undefined, 'ln_pow')], { axes: attr.ints([-1]) }, 'ln_var');
  const std = g.op('Sqrt', [g.op('Add', [variance, c(1e-12)], undefined, 'ln_eps')], undefined, 'ln_sqrt');
  const scaled = g.op('Mul', [g.op('Div', [d, std], undefined, 'ln_div'), g.addInitializer('gamma', randomFloats([8]))], undefined, 'ln_mul');
  g.addNode({ opType: 'Add', inputs: [scaled, g.addInitializer('beta', randomFloats([8]))], outputs: ['y_ln'], name: 'ln_add' });
  // GELU, erf form as the TorchScript exporter writes x * 0.5 * (1 + erf(x / sqrt(2)))
  const erf = g.op('Erf', [g.op('Div', [x, c(Math.SQRT2)], undefined, 'ge_div')], undefined, 'ge_erf');
  const ge = g.op('Mul', [x, g.op('Add', [erf, c(1)], undefined, 'ge_add')], undefined, 'ge_mul');
  g.addNode({ opType: 'Mul', inputs: [ge, c(0.5)], outputs: ['y_gelu'], name: 'ge_half' });
  // GELU, tanh form (gelu_new): 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3)))
  const half = g.op('Mul', [x, c(0.5)], undefined, 'gt_half');
  const cubic = g.op('Mul', [g.op('Pow', [x, c(3)], undefined, 'gt_pow'), c(0.044715)], undefined, 'gt_cubic');
  const inner = g.op('Mul', [g.op('Add', [x, cubic], undefined, 'gt_sum'), c(Math.sqrt(2 / Math.PI))], undefined, 'gt_scale');
  const tanh1 = g.op('Add', [g.op('Tanh', [inner], undefined, 'gt_tanh'), c(1)], undefined, 'gt_add');
  g.addNode({ opType: 'Mul', inputs: [half, tanh1], outputs: ['y_gelu_tanh'], name: 'gt_mul' });
  // Linear layer with Relu
  const mm = g.op('MatMul', [x, g.addInitializer('w', randomFloats([8, 6]))], undefined, 'lin_matmul');
  const biased = g.op('Add', [g.addInitializer('b', randomFloats([6])), mm], undefined, 'lin_add');
  g.addNode({ opType: 'Relu', inputs: [biased], outputs: ['y_lin'], name: 'lin_relu' });
  // Attention scores: K reshaped [b, s, h, d] → Transpose [0, 2, 3, 1] → Q · Kᵀ
  const kt = g.op('Transpose', [k], { perm: attr.ints([0, 2, 3, 1]) }, 'attn_kt');
  g.addNode({ opType: 'MatMul', inputs: [q, kt], outputs: ['y_attn'], name: 'attn_matmul' });
  for (const [name, dims] of [['y_ln', 3], ['y_gelu', 3], ['y_gelu_tanh', 3], ['y_lin', 3], ['y_attn', 4]] as const) {
    g.addOutput(name, 'float32', new Array<string>(dims).fill('?').map((_, i) => `d${i}`));
  }
  return g.encode();
}

test('fused LayerNorm, GELU (erf and tanh) and linear+bias+Relu replace their op chains and match onnxruntime on tfjs-cpu and tfjs-wasm', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-fusion-'));
  after(() => rm(dir, { recursive: true, force: true }));
  const bytes = patternsModel();
  const path = join(dir, 'patterns.onnx');
  await writeFile(path, bytes);

  await tf.setBackend('cpu');
  const executor = new TfjsGraphExecutor(parseOnnxModel(bytes));
  try {
    await executor.run({ x: randomFloats([1, 2, 8]), q: randomFloats([1, 2, 2, 4]), k: randomFloats([1, 2, 2, 4]) });
    const executed = executor.lastRunNodes();
    assert.equal(executed.length, 6, `four fused nodes plus the attention Transpose and MatMul, got: ${executed.join(', ')}`);
    assert.ok(executed.includes('attn_kt') && executed.includes('attn_matmul'), 'Q·Kᵀ keeps its Transpose and MatMul');
    for (const covered of ['ln_sub', 'ln_pow', 'ge_erf', 'gt_tanh', 'lin_add', 'lin_relu']) {
      assert.ok(!executed.includes(covered), `${covered} should be fused away`);
    }
  } finally {
    executor.dispose();
  }

  // Small tensors take the JS kernels, large ones (over their element limits) the tfjs-op fallbacks: both must agree with onnxruntime.
  for (const [batch, seq] of [[2, 3], [64, 80]] as const) {
    const feeds = { x: randomFloats([batch, seq, 8]), q: randomFloats([batch, 2, seq, 4]), k: randomFloats([batch, seq, 2, 4]) };
    const want = await runOnnxRuntime(bytes, feeds);
    for (const backend of ['cpu', 'wasm'] as const) {
      const got = await runTfjs(backend, path, feeds);
      for (const [name, w] of Object.entries(want)) {
        const values = toNumbers(got[name] as HostTensor);
        assert.deepEqual([...(got[name]?.dims ?? [])], [...w.dims], `${name} dims on tfjs-${backend}`);
        const maxDiff = values.reduce((m, v, i) => Math.max(m, Math.abs(v - (w.values[i] as number))), 0);
        assert.ok(maxDiff <= 1e-5, `${name} on tfjs-${backend} at [${batch}, ${seq}] differs from onnxruntime by ${maxDiff}`);
      }
    }
  }
});
