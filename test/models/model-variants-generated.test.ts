import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../src/models/generated/generated-model.js';
import { ensureVariantFile } from '../../src/models/generated/variants.js';
import { dtypePrecision, type ModelDtype } from '../../src/core/dtypes.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { compareVariantOutputs } from '../../src/models/variant-parity.js';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import { createTfjsEngine } from '../../engines/tfjs/tfjs-engine.js';
import { REVIEW_TEXTS, tempCacheRoot } from '../helpers/default-model-fixtures.js';

const DTYPES: ModelDtype[] = ['fp32', 'fp16', 'q8', 'q4'];

test('generated fp16, q8 and q4 variants run on onnxruntime, are smaller, stay close to fp32, and fp16 loads on tfjs', async () => {
  const dir = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  const engine = createOnnxNodeEngine('cpu');
  const sizes = new Map<ModelDtype, number>();
  const outputs = new Map<ModelDtype, Awaited<ReturnType<Awaited<ReturnType<typeof engine.open>>['run']>>>();
  for (const dtype of DTYPES) {
    const made = await ensureVariantFile(dir, dtype);
    assert.ok('path' in made, `${dtype} not generated`);
    assert.match(made.path, dtype === 'fp32' ? /onnx\/model\.onnx$/ : new RegExp(`onnx/model${{ fp16: '_fp16', q8: '_quantized', q4: '_q4' }[dtype as 'fp16']}\\.onnx$`));
    sizes.set(dtype, statSync(made.path).size);
    const model = await new TextClassification(dir, { onnxFile: made.path.slice(dir.length + 1), precision: dtypePrecision(dtype) }).init();
    const session = await engine.open(model.onnxPath(), { threads: 1, precision: model.precision });
    outputs.set(dtype, await session.run(model.tokenizeTexts(REVIEW_TEXTS.slice(0, 8))));
    await session.dispose();
  }
  const fp32 = sizes.get('fp32') as number;
  assert.ok((sizes.get('fp16') as number) < fp32 * 0.55, `fp16 ${sizes.get('fp16')} vs fp32 ${fp32}`);
  assert.ok((sizes.get('q8') as number) < fp32 * 0.35, `q8 ${sizes.get('q8')} vs fp32 ${fp32}`);
  assert.ok((sizes.get('q4') as number) < fp32 * 0.6, `q4 ${sizes.get('q4')} vs fp32 ${fp32}`);
  for (const dtype of ['fp16', 'q8', 'q4'] as const) {
    const parity = compareVariantOutputs(outputs.get('fp32') as never, outputs.get(dtype) as never, { reference: 'fp32', engine: 'onnx-cpu' });
    assert.equal(parity.rows, 8);
    assert.ok(parity.maxAbsDiff > 0, `${dtype} outputs are identical to fp32, so nothing was converted`);
    assert.ok(parity.maxAbsDiff < (dtype === 'fp16' ? 1e-3 : 0.05), `${dtype} max |Δ| ${parity.maxAbsDiff}`);
  }
  // A second call finds the file instead of rewriting it.
  const again = await ensureVariantFile(dir, 'q8');
  assert.ok('path' in again && statSync(again.path).size === sizes.get('q8'));

  // Quantized variants run on tfjs too: see tfjs-quantized-variants-parity.test.ts.
  // fp16 only needs ops the translator has: it runs, computed in fp32.
  const fp16 = await ensureVariantFile(dir, 'fp16');
  assert.ok('path' in fp16);
  const tfjs = await createTfjsEngine('cpu').open(fp16.path, { threads: null, precision: 'fp16' });
  await tfjs.dispose();

  const cannot = await ensureVariantFile(dir, 'q4f16');
  assert.ok('skip' in cannot && /model_q4f16\.onnx/.test(cannot.skip));
});
