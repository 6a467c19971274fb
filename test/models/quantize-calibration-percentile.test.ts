import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { OnnxModelBuilder } from '../../src/core/onnx/onnx-builder.js';
import { f32 } from '../../src/models/generated/graph-writer.js';
import { decodeModel } from '../../src/core/onnx/onnx-proto.js';
import { calibrateRanges } from '../../src/models/quantize/calibrate.js';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import { hostTensor } from '../../src/core/tensor.js';
import { testOutputDir } from '../helpers/test-cache.js';

test('calibration: minmax keeps a lone outlier in the range, percentile cuts it off; both see every batch', async () => {
  const g = new OnnxModelBuilder({ opset: 13 });
  const x = g.addInput('x', 'float32', ['rows', 4]);
  const h = g.op('MatMul', [x, g.addInitializer('W', f32([4, 4], [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]))]);
  g.addNode({ opType: 'Relu', inputs: [h], outputs: ['y'] });
  g.addOutput('y', 'float32', ['rows', 4]);
  const model = decodeModel(g.encode());
  const dir = testOutputDir('calibration-percentile');
  const batch = (seed: number, outlier: number) => {
    const data = Float32Array.from({ length: 40_000 }, (_, i) => Math.sin(i * 0.37 + seed) * 0.9);
    data[123] = outlier;
    return { x: hostTensor('float32', [10_000, 4], data) };
  };
  const batches = [batch(1, 50), batch(2, -3)];
  const engine = createOnnxNodeEngine('cpu');
  // 'MatMul_0_output_0' is an intermediate: calibration makes it an extra output of a scratch copy of the graph.
  const activations = ['x', 'MatMul_0_output_0'];
  const minmax = await calibrateRanges({ model, dir, files: [] }, activations, batches, engine, 'minmax', join(dir, 'a.onnx'));
  const percentile = await calibrateRanges({ model, dir, files: [] }, activations, batches, engine, 'percentile', join(dir, 'b.onnx'));
  assert.equal(minmax.rows, 20_000);
  for (const name of activations) {
    const mm = minmax.ranges.get(name);
    const pc = percentile.ranges.get(name);
    assert.ok(mm && pc, name);
    assert.ok(Math.abs(mm.max - 50) < 1e-6 && Math.abs(mm.min + 3) < 1e-6, `${name} minmax ${JSON.stringify(mm)}`);
    assert.ok(pc.max < 1 && pc.max > 0.85 && pc.min > -1 && pc.min < -0.85, `${name} percentile ${JSON.stringify(pc)}`);
  }
});
