import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { OnnxModelBuilder } from '../../src/core/onnx/onnx-builder.js';
import { ExportRefused } from '../../src/models/tf-export/lower-context.js';
import { writeNativeModel } from '../../src/models/tf-export/native-export.js';
import { testOutputDir } from '../helpers/test-cache.js';

/** A graph the translator runs but the exporter does not map: Trilu. */
function triluModel(dir: string): string {
  const g = new OnnxModelBuilder({ opset: 14 });
  const x = g.addInput('x', 'float32', ['batch', 4, 4]);
  g.addNode({ opType: 'Trilu', inputs: [g.op('Relu', [x])], outputs: ['y'], name: 'upper_triangle_7' });
  g.addOutput('y', 'float32', ['batch', 4, 4]);
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'model.onnx'), g.encode());
  return join(dir, 'onnx', 'model.onnx');
}

for (const format of ['graph-model', 'saved-model'] as const) {
  test(`an op with no TensorFlow mapping fails the ${format} export, naming the op and the node, and writes nothing`, async () => {
    const dir = testOutputDir(`unmapped-${format}`);
    const out = join(dir, 'out');
    await assert.rejects(writeNativeModel(triluModel(dir), format, out), (err: unknown) => {
      assert.ok(err instanceof ExportRefused, String(err));
      assert.equal(err.message, 'no TensorFlow mapping for ONNX op Trilu (node upper_triangle_7)');
      return true;
    });
    assert.equal(existsSync(out), false, 'no folder is written for a refused graph');
  });
}
