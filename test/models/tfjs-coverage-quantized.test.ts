import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../src/models/generated/generated-model.js';
import { ensureVariantFile } from '../../src/models/generated/variants.js';
import { readOnnxModel } from '../../src/core/onnx/onnx-decode.js';
import { tfjsCoverage } from '../../engines/tfjs/op-table.js';
import { REVIEW_TEXTS, tempCacheRoot } from '../helpers/default-model-fixtures.js';

test('tfjs coverage (what inspect reports) is full for q8, int8, q4 and QDQ files', async () => {
  const dir = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  const paths: string[] = [];
  for (const dtype of ['q8', 'int8', 'q4'] as const) {
    const made = await ensureVariantFile(dir, dtype);
    assert.ok('path' in made, dtype);
    paths.push(made.path);
  }
  for (const name of ['bert-dynamic', 'bert-qdq', 'gpt2-dynamic']) paths.push(join(packageRoot(), 'test', 'data', 'quant', name, 'model.onnx'));
  for (const path of paths) {
    const model = await readOnnxModel(path);
    assert.ok(model.nodes.some((n) => /Quantize|MatMulInteger|MatMulNBits/.test(n.opType)), `${path} has no quantized op`);
    assert.deepEqual(tfjsCoverage(model), { unsupported: [], dtypeProblems: [] }, path);
  }
});
