import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ARCHITECTURE_PRESETS } from '../../src/models/generated/arch-presets.js';
import { TINY_BERT_CONFIG } from '../../src/models/generated/bert-config.js';
import { parseArchitectureText } from '../../src/models/generated/arch-parse.js';

test('presets have the shapes of the transformers benchmark comparison, and tiny is the embedded default', () => {
  const base = ARCHITECTURE_PRESETS['bert-base']?.config;
  assert.ok(base);
  assert.deepEqual(
    [base.hiddenSize, base.numLayers, base.numHeads, base.intermediateSize, base.vocabSize, base.maxPositions],
    [768, 12, 12, 3072, 30522, 512],
  );
  const hid = ARCHITECTURE_PRESETS['bert-384-hid']?.config;
  assert.deepEqual([hid?.hiddenSize, hid?.numLayers, hid?.numHeads], [384, 12, 12]);
  const lay = ARCHITECTURE_PRESETS['bert-6-lay']?.config;
  assert.deepEqual([lay?.hiddenSize, lay?.numLayers, lay?.numHeads], [768, 6, 12]);
  assert.equal(ARCHITECTURE_PRESETS['tiny']?.config, TINY_BERT_CONFIG);
  assert.equal(ARCHITECTURE_PRESETS['tiny']?.padVocabulary, false);
  assert.equal(parseArchitectureText('bert-6-lay').name, 'bert-6-lay');
});
