import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../src/models/generated/generated-model.js';
import { REVIEW_TEXTS, tempCacheRoot } from '../helpers/default-model-fixtures.js';

test('the same config and texts give byte-identical model.onnx and tokenizer.json', async () => {
  const first = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  const second = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  assert.notEqual(first, second, 'the two runs must write to different cache roots');
  for (const file of ['onnx/model.onnx', 'tokenizer.json', 'tokenizer_config.json', 'config.json']) {
    const [a, b] = await Promise.all([readFile(join(first, file)), readFile(join(second, file))]);
    assert.ok(a.length > 0, `${file} is empty`);
    assert.ok(a.equals(b), `${file} differs between two generations`);
  }
});
