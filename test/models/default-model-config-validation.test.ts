import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TINY_BERT_CONFIG, validateBertConfig } from '../../src/models/generated/bert-config.js';
import { UserError } from '../../src/core/errors.js';

test('validateBertConfig rejects a bad config with a UserError that names the key', () => {
  assert.doesNotThrow(() => validateBertConfig(TINY_BERT_CONFIG));
  assert.throws(
    () => validateBertConfig({ ...TINY_BERT_CONFIG, hiddenSize: 100, numHeads: 3 }),
    (err: unknown) => err instanceof UserError && /hiddenSize/.test(err.message) && /numHeads/.test(err.message) && !!err.fix,
  );
  assert.throws(
    () => validateBertConfig({ ...TINY_BERT_CONFIG, numLayers: 0 }),
    (err: unknown) => err instanceof UserError && /numLayers/.test(err.message),
  );
  assert.throws(
    () => validateBertConfig({ ...TINY_BERT_CONFIG, intermediateSize: 2.5 }),
    (err: unknown) => err instanceof UserError && /intermediateSize/.test(err.message),
  );
});
