import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TINY_GPT2_CONFIG, validateGpt2Config } from '../../src/models/generated/gpt2-config.js';
import { UserError } from '../../src/core/errors.js';

/** The generated decoder's config is refused like the encoder's, naming the key and the fix (the checks they share are one piece of code). */
test('validateGpt2Config rejects a bad config with a UserError that names the key and the fix', () => {
  assert.doesNotThrow(() => validateGpt2Config(TINY_GPT2_CONFIG));
  const refused = (cfg: object, message: RegExp, fix: RegExp) =>
    assert.throws(() => validateGpt2Config({ ...TINY_GPT2_CONFIG, ...cfg }), (err: unknown) => err instanceof UserError && message.test(err.message) && fix.test(err.fix ?? ''));
  refused({ nLayer: 0 }, /^Decoder config key nLayer must be a positive integer, got 0/, /default 2/);
  refused({ nEmbd: 100, nHead: 3 }, /nEmbd \(100\) must be divisible by nHead \(3\)/, /divisors of nEmbd \(2, 4, 5, 10, 20, 25\)/);
  refused({ vocabSize: 100 }, /vocabSize \(100\) is below 257/, /at least 257/);
  refused({ layerNormEps: 0 }, /layerNormEps must be a small positive number/, /1e-5 \(the GPT-2 default\)/);
  refused({ seed: -1 }, /seed must be an integer from 0 to 4294967295/, /42/);
});
