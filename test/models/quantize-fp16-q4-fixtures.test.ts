import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { hfFixtureArchs, readHfFixture, maxDiffFromReference } from '../helpers/hf-fixtures.js';
import { testOutputDir } from '../helpers/test-cache.js';
import { ensureQuantizedVariant } from '../../src/models/quantize/quantize-cache.js';
import { decodeOnnxFile } from '../../src/core/onnx/onnx-file.js';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';

test('fp16 and q4 of every Hugging Face fixture (opsets 11–17, GPT-2 with float past inputs included) run on onnx-cpu close to PyTorch, with float32 inputs and outputs', async () => {
  const engine = createOnnxNodeEngine('cpu');
  const cacheRoot = testOutputDir('quantize-fp16-q4');
  for (const arch of hfFixtureArchs()) {
    const fixture = readHfFixture(arch);
    for (const [dtype, tolerance] of [['fp16', 5e-3], ['q4', 0.5]] as const) {
      const made = await ensureQuantizedVariant({ sourceDir: fixture.dir, dtype, cacheRoot });
      assert.ok('dir' in made, `${arch} ${dtype}: ${'skip' in made ? made.skip : ''}`);
      const path = join(made.dir, made.file);
      const graph = (await decodeOnnxFile(path)).model.graph;
      // keep_io_types: callers feed and read float32 as before.
      const source = (await decodeOnnxFile(fixture.onnxPath)).model.graph;
      assert.deepEqual(graph?.input?.map((v) => v.type?.tensorType?.elemType), source?.input?.map((v) => v.type?.tensorType?.elemType), `${arch} ${dtype} inputs`);
      assert.deepEqual(graph?.output?.map((v) => v.type?.tensorType?.elemType), source?.output?.map((v) => v.type?.tensorType?.elemType), `${arch} ${dtype} outputs`);
      if (dtype === 'q4') assert.ok(graph?.node?.some((n) => n.opType === 'MatMulNBits' && n.domain === 'com.microsoft'), `${arch}: no MatMulNBits`);
      const session = await engine.open(path, { threads: 1, precision: dtype === 'fp16' ? 'fp16' : 'int4' });
      const outputs = await session.run(fixture.feeds);
      await session.dispose();
      const diff = maxDiffFromReference(fixture, outputs);
      assert.ok(diff > 0 && diff < tolerance, `${arch} ${dtype}: max |Δ| from PyTorch ${diff}`);
    }
  }
});
