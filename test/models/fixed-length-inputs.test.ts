import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FixedLengthModel } from '../../src/models/fixed-length-model.js';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../src/models/generated/generated-model.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { CellSkip } from '../../src/core/errors.js';
import { textsOf } from '../../src/core/raw-texts.js';
import { REVIEW_TEXTS, tempCacheRoot } from '../helpers/default-model-fixtures.js';

test('fixed sequence lengths give deterministic synthetic ids of that length, within the vocabulary', async () => {
  const dir = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  const base = await new TextClassification(dir).init();
  const model = new FixedLengthModel(base, 32, base.vocabSize, base.maxLength);
  assert.equal(model.name, base.name);
  assert.equal(model.onnxPath(), base.onnxPath());
  const rows = REVIEW_TEXTS.slice(0, 3).map((text) => ({ text }));
  const a = model.prepareBatch(rows, { text: 'text', label: null });
  const b = model.prepareBatch(rows, { text: 'text', label: null });
  assert.deepEqual(a['input_ids']?.dims, [3, 32]);
  assert.deepEqual(a['input_ids']?.data, b['input_ids']?.data);
  const ids = [...(a['input_ids']?.data as BigInt64Array)].map(Number);
  assert.ok(ids.every((id) => id >= 5 && id < base.vocabSize));
  assert.ok(new Set(ids).size > 20, 'ids vary');
  assert.ok([...(a['attention_mask']?.data as BigInt64Array)].every((v) => v === 1n));
  assert.ok([...(a['token_type_ids']?.data as BigInt64Array)].every((v) => v === 0n));
  assert.equal(textsOf(a), undefined, 'synthetic inputs carry no texts');
  // Text models attach the raw texts for pipeline engines, invisibly to tensor consumers.
  const tokenized = base.prepareBatch(rows, { text: 'text', label: null });
  assert.deepEqual(textsOf(tokenized), REVIEW_TEXTS.slice(0, 3));
  assert.deepEqual(Object.keys(tokenized).sort(), ['attention_mask', 'input_ids', 'token_type_ids']);
  assert.throws(() => new FixedLengthModel(base, 512, base.vocabSize, base.maxLength).prepareBatch(rows, { text: 'text', label: null }), (err: unknown) => err instanceof CellSkip && /512 exceeds/.test(err.message));
});
