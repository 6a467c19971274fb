/**
 * The Node WebGPU engines against onnx-cpu. Without a GPU this runs on
 * SwiftShader: the test (never inferbench) points this process's Vulkan
 * loader at Debian chromium's SwiftShader ICD unless VK_ICD_FILENAMES is
 * already set, and skips, saying why, where neither gives Dawn an adapter.
 * Batches are small: SwiftShader runs the shaders on the CPU.
 *
 * SwiftShader also compiles every shader on the CPU, and ORT's WebGPU EP
 * keeps its compiled pipelines in a context that lives while any of its
 * sessions does: each onnx-webgpu load (placement pass, then the session)
 * releases its last session and so recompiles everything, about a minute
 * per model on a busy 2-core machine. One idle session held for the whole
 * file keeps that context, so a shader is compiled once per file; the
 * outputs compared are the same.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { SWIFTSHADER_ICD, dawnAdapter } from '../../../engines/webgpu/dawn-adapter.js';
import { createOnnxNodeEngine } from '../../../engines/onnx/onnx-node-engine.js';
import { createTfjsEngine } from '../../../engines/tfjs/tfjs-engine.js';
import { createTransformersJsEngine } from '../../../engines/transformers-js/transformers-js-engine.js';
import type { Engine } from '../../../src/core/engine.js';
import type { EngineSession } from '../../../src/core/engine-session.js';
import type { TensorMap } from '../../../src/core/tensor.js';
import { TextClassification } from '../../../src/models/text-classification.js';
import { REVIEW_TEXTS } from '../../helpers/default-model-fixtures.js';
import { cutFeeds, hfFixtureArchs, readHfFixture, maxDiffBetween } from '../../helpers/hf-fixtures.js';
import { exported, onnxCpuOutputs } from '../../helpers/native-exports.js';
import { bertModelDir } from '../../helpers/tfjs-bert.js';
import { createNativeTfjsEngine } from '../../../engines/tfjs/native-engine.js';
import { warmupOnnx } from '../../../engines/browser/page-assets.js';

const TOLERANCE = 1e-4;

if (process.env['VK_ICD_FILENAMES'] === undefined && existsSync(SWIFTSHADER_ICD)) process.env['VK_ICD_FILENAMES'] = SWIFTSHADER_ICD;
const probe = await dawnAdapter();
const skip = probe.ok ? false : `no WebGPU adapter here: ${probe.reason} (${probe.enable})`;

/** An idle onnxruntime-node WebGPU session on a one-node graph, open for the whole file: it keeps the EP's context and its compiled shaders. */
let keepContext: { release(): Promise<void> } | undefined;
before(async () => {
  if (skip) return;
  const ort = await import('onnxruntime-node');
  keepContext = await ort.InferenceSession.create(await warmupOnnx(), { executionProviders: ['webgpu'] });
});
after(async () => {
  await keepContext?.release();
});

/** Runs `feeds` on `engine` (opening `file`), checks the row's adapter is read back and labelled, and returns the outputs. */
async function outputsOn(engine: Engine, file: string, feeds: TensorMap): Promise<TensorMap> {
  const session: EngineSession = await engine.open(file, { threads: null, precision: 'fp32' });
  try {
    const d = session.describe();
    assert.ok(d.adapter !== undefined, `${engine.id} records its adapter`);
    assert.ok(d.backend.endsWith(`on ${d.adapter.label}`), `${engine.id} backend "${d.backend}" names the adapter`);
    if (probe.ok) assert.equal(d.adapter.software, probe.adapter.software);
    if (d.adapter.software) assert.match(d.adapter.label, /^software adapter \(/);
    return await session.run(feeds);
  } finally {
    await session.dispose();
  }
}

test(`the default model on onnx-webgpu, transformers-js-webgpu, tfjs-webgpu and tfjs-webgpu-graph-model matches onnx-cpu within ${TOLERANCE}`, { skip }, async (t) => {
  const model = await new TextClassification(await bertModelDir()).init();
  const onnxPath = model.onnxPath();
  const inputs = model.prepareBatch(REVIEW_TEXTS.slice(0, 2).map((text) => ({ text })), { text: 'text', label: null });
  const reference = await onnxCpuOutputs(onnxPath, inputs);
  const graphModel = (await exported(onnxPath, 'graph-model')).file;
  const runs: ReadonlyArray<readonly [Engine, string]> = [
    [createOnnxNodeEngine('webgpu'), onnxPath],
    [createTransformersJsEngine('webgpu'), onnxPath],
    [createTfjsEngine('webgpu'), onnxPath],
    [createNativeTfjsEngine('webgpu', 'graph-model'), graphModel],
  ];
  const diffs: string[] = [];
  for (const [engine, file] of runs) {
    const diff = maxDiffBetween(reference, await outputsOn(engine, file, inputs));
    diffs.push(`${engine.id} ${diff.toExponential(2)}`);
    assert.ok(diff <= TOLERANCE, `${engine.id}: max |diff| from onnx-cpu is ${diff}`);
  }
  t.diagnostic(`max |diff| from onnx-cpu: ${diffs.join(', ')}`);
});

// transformers-js runs its pipeline on raw texts and the HF fixtures hold token feeds, so it is checked on the default model above.
// One row of each fixture: SwiftShader runs every shader on the CPU. tfjs-webgpu-graph-model is checked on the default model only:
// on these fixtures tfjs-backend-webgpu's concat meets rank-0 inputs where tfjs-cpu's does not ("axis param must be in range [-0, 0)"),
// an open defect of that engine, not hidden here.
for (const arch of hfFixtureArchs()) {
  test(`${arch}: onnx-webgpu and tfjs-webgpu match onnx-cpu within ${TOLERANCE}`, { skip }, async (t) => {
    const fixture = readHfFixture(arch);
    // Token feeds are cut to their first row; a decoder's past key/values are not token feeds and stay whole.
    const tokenFeeds = Object.values(fixture.feeds).every((f) => f.dtype === 'int64' && f.dims.length === 2);
    const feeds = tokenFeeds ? cutFeeds(fixture.feeds, 1, Object.values(fixture.feeds)[0]?.dims[1] as number) : fixture.feeds;
    const reference = await onnxCpuOutputs(fixture.onnxPath, feeds);
    const diffs: string[] = [];
    for (const engine of [createOnnxNodeEngine('webgpu'), createTfjsEngine('webgpu')]) {
      const diff = maxDiffBetween(reference, await outputsOn(engine, fixture.onnxPath, feeds));
      diffs.push(`${engine.id} ${diff.toExponential(2)}`);
      assert.ok(diff <= TOLERANCE, `${arch} on ${engine.id}: max |diff| from onnx-cpu is ${diff}`);
    }
    t.diagnostic(`${arch} max |diff| from onnx-cpu: ${diffs.join(', ')}`);
  });
}
