import assert from 'node:assert/strict';
import { test } from 'node:test';
import { env, pipeline } from '@huggingface/transformers';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../src/models/generated/generated-model.js';
import { REVIEW_TEXTS, tempCacheRoot } from '../helpers/default-model-fixtures.js';

test('@huggingface/transformers loads the generated folder offline as a text-classification pipeline', async () => {
  const dir = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  env.allowRemoteModels = false;
  const classify = await pipeline('text-classification', dir, { local_files_only: true });
  try {
    const result = await classify('A wonderful film with superb acting.');
    const top = (Array.isArray(result) ? result[0] : result) as { label: string; score: number } | undefined;
    assert.ok(top, 'no prediction');
    assert.ok(['NEGATIVE', 'POSITIVE'].includes(top.label), `unexpected label ${top.label}`);
    assert.ok(top.score >= 0.5 && top.score <= 1, `score ${top.score} is not a top-1 probability of two classes`);
  } finally {
    await classify.dispose();
  }
});
