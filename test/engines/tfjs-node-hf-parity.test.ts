import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import { hfFixtureArchs, readHfFixture, maxDiffBetween as maxDiff, maxDiffFromReference } from '../helpers/hf-fixtures.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

const TOLERANCE = 1e-4;
const skip = await tfjsNodeSkip();

for (const arch of hfFixtureArchs()) {
  test(`${arch}: tfjs-node (libtensorflow) matches onnx-cpu and PyTorch within ${TOLERANCE}`, { skip }, async (t) => {
    const fixture = readHfFixture(arch);
    const onnx = await createOnnxNodeEngine('cpu').open(fixture.onnxPath, { threads: 1, precision: 'fp32' });
    const reference = await onnx.run(fixture.feeds).finally(() => onnx.dispose());
    const session = await createTfjsEngine('node').open(fixture.onnxPath, { threads: null, precision: 'fp32' });
    try {
      assert.equal(session.describe().backend, 'tensorflow CPU', 'the device libtensorflow took, read back');
      // The first run records the shape-only values; the second runs with them folded away.
      for (const run of ['first', 'folded'] as const) {
        const outputs = await session.run(fixture.feeds);
        const vsOnnx = maxDiff(reference, outputs);
        const vsTorch = maxDiffFromReference(fixture, outputs);
        assert.ok(vsOnnx <= TOLERANCE, `${arch} on tfjs-node (${run} run): max |diff| from onnx-cpu is ${vsOnnx}`);
        assert.ok(vsTorch <= TOLERANCE, `${arch} on tfjs-node (${run} run): max |diff| from PyTorch is ${vsTorch}`);
        if (run === 'folded') t.diagnostic(`${arch} tfjs-node max |diff|: ${vsOnnx.toExponential(2)} from onnx-cpu, ${vsTorch.toExponential(2)} from PyTorch`);
      }
    } finally {
      await session.dispose();
    }
  });
}
