import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hfFixtureArchs, readHfFixture, maxDiffBetween, maxDiffFromReference } from '../helpers/hf-fixtures.js';
import { nativeOutputs, onnxCpuOutputs } from '../helpers/native-exports.js';

const TOLERANCE = 1e-4;

for (const arch of hfFixtureArchs()) {
  test(`${arch}: the exported GraphModel on tfjs-converter's executor (tfjs-cpu, tfjs-wasm) matches onnx-cpu and PyTorch within ${TOLERANCE}`, async (t) => {
    const fixture = readHfFixture(arch);
    const reference = await onnxCpuOutputs(fixture.onnxPath, fixture.feeds);
    const diffs: string[] = [];
    for (const backend of ['cpu', 'wasm'] as const) {
      const { outputs, executor } = await nativeOutputs(fixture.onnxPath, backend, 'graph-model', fixture.feeds);
      assert.equal(executor, 'tfjs-converter GraphModel');
      const vsOnnx = maxDiffBetween(reference, outputs);
      const vsTorch = maxDiffFromReference(fixture, outputs);
      assert.ok(vsOnnx <= TOLERANCE, `${arch} GraphModel on tfjs-${backend}: max |diff| from onnx-cpu is ${vsOnnx}`);
      assert.ok(vsTorch <= TOLERANCE, `${arch} GraphModel on tfjs-${backend}: max |diff| from PyTorch is ${vsTorch}`);
      diffs.push(`tfjs-${backend} ${vsOnnx.toExponential(2)}`);
    }
    t.diagnostic(`${arch} GraphModel max |diff| from onnx-cpu: ${diffs.join(', ')}`);
  });
}
