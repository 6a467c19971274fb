import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultClassifier, ensureVariantFile } from '../../src/index.js';
import { createTransformersJsEngine } from '../../engines/transformers-js/transformers-js-engine.js';
import { openedGraph } from '../../engines/transformers-js/session-readback.js';
import { useTestCache } from '../helpers/test-cache.js';

useTestCache();

test('transformers-js reads device, dtype and precision off its own ONNX session, not from the options given', async () => {
  const model = await defaultClassifier();
  const engine = createTransformersJsEngine('cpu');
  // The precision passed in is deliberately wrong: the row must carry what transformers.js opened.
  const fp32 = await engine.open(model.onnxPath(), { threads: 1, precision: 'int4' });
  const d = fp32.describe();
  await fp32.dispose();
  assert.equal(d.backend, 'onnxruntime-node cpu via transformers.js');
  assert.equal(d.precision, 'fp32');
  assert.ok(d.notes?.includes('dtype fp32 (model.onnx)'), JSON.stringify(d.notes));
  assert.deepEqual(Object.keys(d.placement?.byProvider ?? {}), ['CPUExecutionProvider'], 'placement from ORT\'s profiler');
  assert.ok((d.placement?.byProvider['CPUExecutionProvider']?.nodes ?? 0) > 0);

  const q8 = await ensureVariantFile(model.dir, 'q8');
  assert.ok('path' in q8);
  const quantized = await engine.open(q8.path, { threads: 1, precision: 'fp32' });
  const dq = quantized.describe();
  await quantized.dispose();
  assert.equal(dq.precision, 'int8', 'q8 read back from the session');
  assert.ok(dq.notes?.includes('dtype q8 (model_quantized.onnx)'));
});

test('a session that records no device or dtype, or another graph than the cell\'s, is an error, never a guess', () => {
  assert.throws(() => openedGraph({}, '/m/onnx/model.onnx'), /did not record the device and dtype/);
  assert.throws(() => openedGraph({ config: { device: 'cpu', dtype: 'fp16' } }, '/m/onnx/model.onnx'), /opened onnx\/model_fp16\.onnx \(dtype fp16\), not the benchmarked model\.onnx/);
  assert.deepEqual(openedGraph({ config: { device: 'cuda', dtype: 'q4' } }, '/m/onnx/model_q4.onnx'), { device: 'cuda', dtype: 'q4', file: 'model_q4.onnx', precision: 'int4' });
});
