import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import onnxProto from 'onnx-proto';
import { defaultClassifier } from '../../src/index.js';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import type { EngineSession } from '../../src/core/engine-session.js';
import { useTestCache } from '../helpers/test-cache.js';

useTestCache();

/** Node count of an ONNX file, read with onnx-proto. */
async function nodeCount(path: string): Promise<number> {
  return onnxProto.onnx.ModelProto.decode(await readFile(path)).graph?.node?.length ?? 0;
}

async function profileDirs(root: string): Promise<string[]> {
  return (await readdir(root)).filter((f) => f.startsWith('inferbench-ort-profile-'));
}

test('onnx-cpu reads its placement from ORT\'s profiler: every node of ORT\'s optimized graph on the CPU provider, trace removed', async () => {
  const model = await defaultClassifier();
  // The engine's profile folder goes to a temporary folder of this test's own: other test processes profile into the
  // shared one at the same time, so only a private one shows whether this open removed its folder.
  const privateTmp = await mkdtemp(join(tmpdir(), 'inferbench-test-tmp-'));
  const sharedTmp = process.env['TMPDIR'];
  process.env['TMPDIR'] = privateTmp;
  let d: ReturnType<EngineSession['describe']>;
  let left: string[];
  try {
    const session = await createOnnxNodeEngine('cpu').open(model.onnxPath(), { threads: 1, precision: 'fp32' });
    d = session.describe();
    await session.dispose();
    left = await profileDirs(privateTmp);
  } finally {
    if (sharedTmp === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = sharedTmp;
    await rm(privateTmp, { recursive: true, force: true });
  }

  // Method: ORT fuses nodes at the 'all' level the engine uses (LayerNorm, GELU, Gemm…), and drops Constant nodes
  // into initializers at any level, so the source graph's count is not the count ORT runs. ORT writes the graph it
  // actually runs to optimizedModelFilePath; with the engine's own options its node count must equal the profile's.
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-test-optimized-'));
  try {
    const optimized = join(dir, 'optimized.onnx');
    const s = await ort.InferenceSession.create(model.onnxPath(), {
      executionProviders: ['cpu'],
      intraOpNumThreads: 1,
      graphOptimizationLevel: 'all',
      optimizedModelFilePath: optimized,
      logSeverityLevel: 3,
    });
    await s.release();
    const expected = await nodeCount(optimized);
    assert.ok(expected < (await nodeCount(model.onnxPath())), 'ORT fused nodes, so the optimized graph is the exact reference');
    assert.deepEqual(d.placement?.byProvider && Object.keys(d.placement.byProvider), ['CPUExecutionProvider']);
    assert.equal(d.placement?.byProvider['CPUExecutionProvider']?.nodes, expected);
    assert.ok((d.placement?.byProvider['CPUExecutionProvider']?.timeUs ?? 0) > 0, 'kernel time summed from the trace');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  assert.deepEqual(d.placement?.cpuFallbackOps, [], 'no GPU provider asked for, so nothing fell back');
  assert.equal(d.backend, 'CPUExecutionProvider', 'backend read back from the placement');
  assert.deepEqual(left, [], 'the profile folder is removed');
});
