/**
 * What one forward of the default model costs tfjs-webgpu in GPU round
 * trips, counted (never timed) on tfjs-backend-webgpu's own entry points
 * (helpers/webgpu-forward-counts.ts): read-backs, host→GPU uploads,
 * dispatches, shader pipelines compiled, and live tensors. These counts are why tfjs-webgpu had a fixed cost per forward
 * and GPU memory that grew with batch on an H100 (docs/gpu.md): every
 * LayerNorm/GELU constant was a fresh scalar uploaded each call, embedding
 * rows were copied on the host and uploaded each batch, and every handler's
 * temporaries lived until the forward ended.
 *
 * Without a GPU this runs on SwiftShader, as the parity test does: the test
 * (never inferbench) points this process's Vulkan loader at Debian
 * chromium's SwiftShader ICD unless VK_ICD_FILENAMES is already set, and
 * skips, saying why, where neither gives Dawn an adapter.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { SWIFTSHADER_ICD, dawnAdapter } from '../../../engines/webgpu/dawn-adapter.js';
import { createTfjsEngine } from '../../../engines/tfjs/tfjs-engine.js';
import { WEBGPU_KERNELS_NOTE } from '../../../engines/tfjs/webgpu-kernels.js';
import { REVIEW_TEXTS } from '../../helpers/default-model-fixtures.js';
import { bertBatch, bertModelDir } from '../../helpers/tfjs-bert.js';
import { countWebGpuCall } from '../../helpers/webgpu-forward-counts.js';

if (process.env['VK_ICD_FILENAMES'] === undefined && existsSync(SWIFTSHADER_ICD)) process.env['VK_ICD_FILENAMES'] = SWIFTSHADER_ICD;
const probe = await dawnAdapter();
const skip = probe.ok ? false : `no WebGPU adapter here: ${probe.reason} (${probe.enable})`;

test('a forward of the default model on tfjs-webgpu reads back only its output, uploads only its feeds, compiles nothing, frees each step\'s temporaries and says its LayerNorm/GELU are one shader each', { skip }, async (t) => {
  const dir = await bertModelDir();
  const feeds = await bertBatch(dir, REVIEW_TEXTS.slice(0, 2));
  const session = await createTfjsEngine('webgpu').open(`${dir}/onnx/model.onnx`, { threads: null, precision: 'fp32' });
  try {
    // The first forward records the folded plan and compiles the shaders, the second uploads the plan's folded values once; the third is what every later batch pays.
    await session.run(feeds);
    await session.run(feeds);
    const { result: outputs, counts } = await countWebGpuCall(() => session.run(feeds));
    t.diagnostic(`per forward: ${JSON.stringify(counts)}`);
    // The row says what ran: LayerNorm and GELU are inferbench's shaders on this engine.
    assert.ok(session.describe().notes?.includes(WEBGPU_KERNELS_NOTE), 'the row notes the WGSL LayerNorm/GELU');
    // One read-back per output the graph computes on the GPU (the logits); a shape read back mid-graph would add one.
    assert.equal(counts.reads, Object.keys(outputs).length, 'read-backs per forward');
    // At most one upload per feed: constants, scalars and folded shape values are uploaded once per open, embedding rows are gathered on the GPU.
    // Before the kept scalars and the GPU gather: 16 (LayerNorm/GELU scalars, three [batch, seq, hidden] embedding lookups, an index).
    assert.ok(counts.uploads <= Object.keys(feeds).length, `uploads per forward: ${counts.uploads}`);
    assert.equal(counts.pipelinesCompiled, 0, 'shader pipelines compiled by a repeated forward');
    // Two layers' live activations and one step's temporaries; when every LayerNorm/GELU temporary lived to the end of the forward, 77.
    assert.ok(counts.extraTensors <= 32, `live tensors above resting during a forward: ${counts.extraTensors}`);
  } finally {
    await session.dispose();
  }
});
