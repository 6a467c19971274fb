import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { defaultClassifier } from '../../src/models/default-classifier.js';
import { cutForTokens, MAX_CHARS_PER_TOKEN } from '../../src/models/text-classification.js';
import { REVIEW_TEXTS } from '../helpers/default-model-fixtures.js';
import { useTestCache } from '../helpers/test-cache.js';

test('a huge text row is cut before tokenizing; the ids are the same as tokenizing it in full', async () => {
  useTestCache();
  const model = await defaultClassifier();
  const tokenizer = new Tokenizer(JSON.parse(readFileSync(join(model.dir, 'tokenizer.json'), 'utf8')), JSON.parse(readFileSync(join(model.dir, 'tokenizer_config.json'), 'utf8')));
  /** What encode() gave before: the whole text tokenized, then truncated keeping the final special token. */
  const fullThenTruncate = (text: string): number[] => {
    const ids = tokenizer.encode(text).ids;
    return ids.length > model.maxLength ? [...ids.slice(0, model.maxLength - 1), ids[ids.length - 1] as number] : ids;
  };

  for (const text of [...REVIEW_TEXTS.slice(0, 50), '', 'short', REVIEW_TEXTS.join(' ')]) {
    assert.deepEqual(model.encode(text).ids, fullThenTruncate(text), `normal row changed: ${text.slice(0, 40)}`);
  }

  const huge = REVIEW_TEXTS.join(' ').repeat(Math.ceil(1_000_000 / REVIEW_TEXTS.join(' ').length)).slice(0, 1_000_000);
  assert.equal(cutForTokens(huge, model.maxLength).length, model.maxLength * MAX_CHARS_PER_TOKEN);
  // What the model's tokenizer is handed: the cut is checked where it happens, not by timing the two encodes
  // (a ratio of two timings swings with the machine's load). The whole megabyte never reaches the tokenizer.
  const modelTokenizer = (model as unknown as { contents: { tokenizer: Tokenizer } }).contents.tokenizer;
  const handed: number[] = [];
  const encode = modelTokenizer.encode.bind(modelTokenizer);
  modelTokenizer.encode = ((text: string, options?: Parameters<Tokenizer['encode']>[1]) => (handed.push(text.length), encode(text, options))) as Tokenizer['encode'];
  const cut = model.encode(huge).ids;
  assert.deepEqual(handed, [model.maxLength * MAX_CHARS_PER_TOKEN], 'the tokenizer was handed the cut text, once');
  const full = fullThenTruncate(huge);
  assert.deepEqual(cut, full, 'the first maxLength tokens are unchanged');
  assert.equal(cut.length, model.maxLength);
});
