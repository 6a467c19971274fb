import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hfFixtureArchs, readHfFixture, maxDiffBetween } from '../helpers/hf-fixtures.js';
import { nativeOutputs, onnxCpuOutputs } from '../helpers/native-exports.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

const TOLERANCE = 1e-4;
const skip = await tfjsNodeSkip();

for (const arch of hfFixtureArchs()) {
  test(`${arch}: the exported GraphModel on tfjs-converter's executor over libtensorflow (tfjs-node) matches onnx-cpu within ${TOLERANCE}`, { skip }, async (t) => {
    const fixture = readHfFixture(arch);
    const reference = await onnxCpuOutputs(fixture.onnxPath, fixture.feeds);
    const { outputs } = await nativeOutputs(fixture.onnxPath, 'node', 'graph-model', fixture.feeds);
    const diff = maxDiffBetween(reference, outputs);
    assert.ok(diff <= TOLERANCE, `${arch} GraphModel on tfjs-node: max |diff| from onnx-cpu is ${diff}`);
    t.diagnostic(`${arch} GraphModel on tfjs-node max |diff| from onnx-cpu: ${diff.toExponential(2)}`);
  });
}
