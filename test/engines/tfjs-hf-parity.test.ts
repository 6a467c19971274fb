import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import type { Engine } from '../../src/core/engine.js';
import { hfFixtureArchs, readHfFixture, maxDiffFromReference } from '../helpers/hf-fixtures.js';

const TOLERANCE = 1e-4;

const engines: ReadonlyArray<readonly [string, () => Engine]> = [
  ['onnx-cpu', () => createOnnxNodeEngine('cpu')],
  ['tfjs-cpu', () => createTfjsEngine('cpu')],
  ['tfjs-wasm', () => createTfjsEngine('wasm')],
];

for (const arch of hfFixtureArchs()) {
  test(`${arch}: onnx-cpu, tfjs-cpu and tfjs-wasm reproduce PyTorch's outputs within ${TOLERANCE}`, async (t) => {
    const fixture = readHfFixture(arch);
    const diffs: string[] = [];
    for (const [id, make] of engines) {
      const session = await make().open(fixture.onnxPath, { threads: id === 'onnx-cpu' ? 1 : null, precision: 'fp32' });
      try {
        // The first run records the shape-only values; the second runs with them folded away.
        for (const run of ['first', 'folded'] as const) {
          const diff = maxDiffFromReference(fixture, await session.run(fixture.feeds));
          if (run === 'folded') diffs.push(`${id} ${diff.toExponential(2)}`);
          assert.ok(diff <= TOLERANCE, `${arch} on ${id} (${run} run): max |diff| from PyTorch is ${diff}`);
        }
      } finally {
        await session.dispose();
      }
    }
    t.diagnostic(`${arch} (opset ${fixture.opset}) max |diff| from PyTorch: ${diffs.join(', ')}`);
  });
}
