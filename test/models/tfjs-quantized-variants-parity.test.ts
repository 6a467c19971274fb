import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../src/models/generated/generated-model.js';
import { ensureVariantFile } from '../../src/models/generated/variants.js';
import { dtypePrecision, type ModelDtype } from '../../src/core/dtypes.js';
import type { TfjsBackend } from '../../src/core/engine.js';
import type { TensorMap } from '../../src/core/tensor.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import { REVIEW_TEXTS, tempCacheRoot } from '../helpers/default-model-fixtures.js';

/**
 * The generated model's q8 (DynamicQuantizeLinear → MatMulInteger with uint8
 * weights, int8 embedding tables through DequantizeLinear) and q4
 * (com.microsoft.MatMulNBits) files run on tfjs-cpu and tfjs-wasm and give
 * onnx-cpu's logits on the same file. q8 is computed exactly, so only the
 * float ops around it differ (measured ~4e-9); q4's fp32 matmul by the
 * dequantized weight sums in another order than ORT's (measured ~4e-8).
 */
const LIMITS: Partial<Record<ModelDtype, { readonly tolerance: number; readonly note: RegExp }>> = {
  q8: { tolerance: 1e-4, note: /MatMulInteger exact/ },
  q4: { tolerance: 1e-4, note: /MatMulNBits: 4-bit weights dequantized to fp32/ },
};

function maxAbsDiff(a: TensorMap, b: TensorMap, name: string): number {
  const x = a[name]?.data as Float32Array;
  const y = b[name]?.data as Float32Array;
  assert.equal(x.length, y.length);
  let max = 0;
  for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs((x[i] as number) - (y[i] as number)));
  return max;
}

test('generated q8 and q4 variants run on tfjs-cpu and tfjs-wasm within 1e-4 of onnx-cpu on the same file, and the row says how', async () => {
  const dir = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  for (const [dtype, limit] of Object.entries(LIMITS) as [ModelDtype, NonNullable<(typeof LIMITS)['q8']>][]) {
    const made = await ensureVariantFile(dir, dtype);
    assert.ok('path' in made, `${dtype} not generated`);
    const model = await new TextClassification(dir, { onnxFile: made.path.slice(dir.length + 1), precision: dtypePrecision(dtype) }).init();
    const feeds = model.tokenizeTexts(REVIEW_TEXTS.slice(0, 16));
    const ort = await createOnnxNodeEngine('cpu').open(model.onnxPath(), { threads: 1, precision: model.precision });
    const reference = await ort.run(feeds);
    await ort.dispose();
    const output = Object.keys(reference)[0] as string;
    for (const backend of ['cpu', 'wasm'] as TfjsBackend[]) {
      const session = await createTfjsEngine(backend).open(model.onnxPath(), { threads: null, precision: model.precision });
      try {
        const diff = maxAbsDiff(await session.run(feeds), reference, output);
        assert.ok(diff <= limit.tolerance, `${dtype} on tfjs-${backend}: max |Δ| ${diff} vs onnx-cpu`);
        const row = session.describe();
        const notes = row.notes ?? [];
        assert.equal(row.precision, model.precision, `${dtype} on tfjs-${backend}: precision`);
        assert.ok(notes.some((n) => limit.note.test(n)), `${dtype} on tfjs-${backend}: notes ${JSON.stringify(notes)}`);
        assert.ok(!notes.some((n) => /graph computed in fp32/.test(n)), `${dtype} on tfjs-${backend}: still claims fp32 widening`);
      } finally {
        await session.dispose();
      }
    }
  }
});
