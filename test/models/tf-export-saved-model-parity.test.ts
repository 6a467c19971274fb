import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hfFixtureArchs, readHfFixture, maxDiffBetween, maxDiffFromReference } from '../helpers/hf-fixtures.js';
import { nativeOutputs, onnxCpuOutputs } from '../helpers/native-exports.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

const TOLERANCE = 1e-4;
const skip = await tfjsNodeSkip();

for (const arch of hfFixtureArchs()) {
  test(`${arch}: the exported SavedModel in a TensorFlow session (tfjs-node) matches onnx-cpu and PyTorch within ${TOLERANCE}`, { skip }, async (t) => {
    const fixture = readHfFixture(arch);
    const reference = await onnxCpuOutputs(fixture.onnxPath, fixture.feeds);
    const { outputs, executor } = await nativeOutputs(fixture.onnxPath, 'node', 'saved-model', fixture.feeds);
    assert.equal(executor, 'TensorFlow session (SavedModel)');
    const vsOnnx = maxDiffBetween(reference, outputs);
    const vsTorch = maxDiffFromReference(fixture, outputs);
    assert.ok(vsOnnx <= TOLERANCE, `${arch} SavedModel on tfjs-node: max |diff| from onnx-cpu is ${vsOnnx}`);
    assert.ok(vsTorch <= TOLERANCE, `${arch} SavedModel on tfjs-node: max |diff| from PyTorch is ${vsTorch}`);
    t.diagnostic(`${arch} SavedModel max |diff|: ${vsOnnx.toExponential(2)} from onnx-cpu, ${vsTorch.toExponential(2)} from PyTorch`);
  });
}
