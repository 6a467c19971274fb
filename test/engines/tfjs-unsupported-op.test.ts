import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { OnnxModelBuilder } from '../../src/core/onnx/onnx-builder.js';
import { CellSkip } from '../../src/core/errors.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';

test('loading a graph with an op the tfjs translator lacks throws CellSkip naming the op and the node', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-tfjs-'));
  after(() => rm(dir, { recursive: true, force: true }));
  const g = new OnnxModelBuilder({ opset: 14, extraOpsets: { 'com.microsoft': 1 } });
  const x = g.addInput('x', 'float32', ['batch', 4]);
  const y = g.op('Relu', [x]);
  g.addNode({ opType: 'Hardmax', inputs: [y], outputs: ['h'], name: 'hard_max_1' });
  g.addNode({ opType: 'FastGelu', domain: 'com.microsoft', inputs: ['h'], outputs: ['z'], name: 'ms_gelu' });
  g.addOutput('z', 'float32', ['batch', 4]);
  const path = join(dir, 'unsupported.onnx');
  await writeFile(path, g.encode());

  for (const backend of ['cpu', 'wasm'] as const) {
    await assert.rejects(createTfjsEngine(backend).open(path, { threads: null, precision: 'fp32' }), (err: unknown) => {
      assert.ok(err instanceof CellSkip, `expected CellSkip, got ${String(err)}`);
      assert.equal(err.message, 'unsupported ONNX op Hardmax (node hard_max_1)');
      return true;
    });
  }

  // Ops of other domains are named with their domain, so com.microsoft fusions are not mistaken for standard ops.
  const h = new OnnxModelBuilder({ opset: 14, extraOpsets: { 'com.microsoft': 1 } });
  h.addNode({ opType: 'FastGelu', domain: 'com.microsoft', inputs: [h.addInput('x', 'float32', [4])], outputs: ['z'], name: 'ms_gelu' });
  h.addOutput('z', 'float32', [4]);
  await writeFile(path, h.encode());
  await assert.rejects(createTfjsEngine('cpu').open(path, { threads: null, precision: 'fp32' }), {
    name: 'CellSkip',
    message: 'unsupported ONNX op com.microsoft.FastGelu (node ms_gelu)',
  });
});
