import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { Tokenizer } from '@huggingface/tokenizers';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../src/models/generated/generated-model.js';
import { REVIEW_TEXTS, tempCacheRoot } from '../helpers/default-model-fixtures.js';

test('the generated tokenizer.json loads in @huggingface/tokenizers and encodes BERT-style', async () => {
  const dir = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: REVIEW_TEXTS, cacheDir: await tempCacheRoot() });
  const json = JSON.parse(await readFile(join(dir, 'tokenizer.json'), 'utf8')) as { model: { vocab: Record<string, number> } };
  const config = JSON.parse(await readFile(join(dir, 'tokenizer_config.json'), 'utf8')) as Record<string, unknown>;
  const modelConfig = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(config['model_max_length'], TINY_BERT_CONFIG.maxPositions);
  assert.equal(modelConfig['vocab_size'], Object.keys(json.model.vocab).length, 'config.json vocab_size matches the tokenizer');

  const tokenizer = new Tokenizer(json, config);
  assert.equal(tokenizer.token_to_id('[PAD]'), 0);
  // Lowercased, accents stripped, punctuation split, [CLS] ... [SEP], frequent words whole.
  const enc = tokenizer.encode('The CAFÉ film, a DELIGHT!', { return_token_type_ids: true });
  assert.deepEqual(enc.tokens, ['[CLS]', 'the', 'cafe', 'film', ',', 'a', 'delight', '!', '[SEP]']);
  assert.deepEqual(enc.token_type_ids, new Array(enc.ids.length).fill(0));
  assert.ok(!enc.tokens.includes('[UNK]'));
  // A word never seen but made of seen characters falls back to ## pieces, not [UNK].
  const pieces = tokenizer.tokenize('filmacting');
  assert.ok(pieces.length > 1 && pieces.slice(1).every((p: string) => p.startsWith('##')), `unexpected pieces ${pieces.join(' ')}`);
  assert.equal(tokenizer.decode(enc.ids, { skip_special_tokens: true }), 'the cafe film, a delight!');
});
