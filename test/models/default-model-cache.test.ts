import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { defaultCacheRoot, ensureGeneratedModel } from '../../src/models/generated/generated-model.js';
import { REVIEW_TEXTS, tempCacheRoot } from '../helpers/default-model-fixtures.js';

test('a generated model is written once into models/<name>-<hash> and reused, even by concurrent calls', async () => {
  const root = await tempCacheRoot();
  assert.equal(defaultCacheRoot(), root, 'INFERBENCH_CACHE decides the cache root');
  const options = { texts: REVIEW_TEXTS, name: 'cache-test' };
  const [a, b, c] = await Promise.all([1, 2, 3].map(() => ensureGeneratedModel(TINY_BERT_CONFIG, options)));
  assert.equal(a, b);
  assert.equal(b, c);
  assert.equal(dirname(a as string), join(root, 'models'));
  assert.match(a as string, /cache-test-[0-9a-f]{12}$/);
  const before = (await stat(join(a as string, 'onnx', 'model.onnx'))).mtimeMs;
  assert.equal(await ensureGeneratedModel(TINY_BERT_CONFIG, options), a);
  assert.equal((await stat(join(a as string, 'onnx', 'model.onnx'))).mtimeMs, before, 'the cached file was rewritten');
  assert.deepEqual(await readdir(join(root, 'models')), [`${(a as string).split('/').pop()}`], 'temporary folders were left behind');
  const other = await ensureGeneratedModel({ ...TINY_BERT_CONFIG, seed: 7 }, options);
  assert.notEqual(other, a, 'a different seed must not reuse the folder');
});
