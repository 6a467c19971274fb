import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextClassification } from '../../src/models/text-classification.js';
import { hfFixtureArchs, readHfFixture } from '../helpers/hf-fixtures.js';

test('the Hugging Face fixtures load as TextClassification models whose tokenizer reproduces the ids PyTorch was fed', async () => {
  for (const arch of hfFixtureArchs()) {
    const fixture = readHfFixture(arch);
    if (!Array.isArray(fixture.sentences)) continue; // the decoder-with-past fixture is fed cache tensors, not text
    const model = await new TextClassification(fixture.dir).init();
    const feeds = model.tokenizeTexts(fixture.sentences);
    for (const [name, want] of Object.entries(fixture.feeds)) {
      const got = feeds[name];
      assert.ok(got, `${arch}: TextClassification builds no ${name}`);
      assert.deepEqual([...got.dims], [...want.dims], `${arch}: ${name} dims`);
      assert.deepEqual(Array.from(got.data as BigInt64Array), Array.from(want.data as BigInt64Array), `${arch}: ${name} differs from the ids PyTorch was fed`);
    }
    assert.deepEqual(model.labels, ['NEGATIVE', 'POSITIVE']);
  }
});
