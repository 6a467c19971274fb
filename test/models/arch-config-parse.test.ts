import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArchitectures, parseArchitectureText } from '../../src/models/generated/arch-parse.js';
import { testOutputDir } from '../helpers/test-cache.js';

test('key=value configs override the tiny default (or a named base) and are named after their text', () => {
  const spec = parseArchitectureText('hidden=384,layers=6,heads=6');
  assert.equal(spec.name, 'hidden=384,layers=6,heads=6');
  assert.deepEqual([spec.config.hiddenSize, spec.config.numLayers, spec.config.numHeads, spec.config.intermediateSize], [384, 6, 6, 512]);
  assert.equal(spec.padVocabulary, false);
  const fromBase = parseArchitectureText('base=bert-base,layers=4,name=bert-4-lay');
  assert.equal(fromBase.name, 'bert-4-lay');
  assert.deepEqual([fromBase.config.hiddenSize, fromBase.config.numLayers, fromBase.config.vocabSize], [768, 4, 30522]);
  assert.equal(fromBase.padVocabulary, true);
  assert.equal(parseArchitectureText('vocab=900,hidden=64').padVocabulary, true);
  const labels = parseArchitectureText('labels=3');
  assert.deepEqual(labels.config.id2label, { 0: 'LABEL_0', 1: 'LABEL_1', 2: 'LABEL_2' });
});

test('a JSON file gives one config or a list, in short, camelCase or config.json keys', () => {
  const dir = testOutputDir('arch-json');
  const list = join(dir, 'shapes.json');
  writeFileSync(list, JSON.stringify(['bert-6-lay', { name: 'narrow', hidden_size: 256, num_attention_heads: 4 }, { numLayers: 3 }]));
  const specs = parseArchitectures([list, 'tiny']);
  assert.deepEqual(specs.map((s) => s.name), ['bert-6-lay', 'narrow', 'shapes-2', 'tiny']);
  assert.deepEqual([specs[1]?.config.hiddenSize, specs[1]?.config.numHeads], [256, 4]);
  assert.equal(specs[2]?.config.numLayers, 3);
  const single = join(dir, 'wide.json');
  writeFileSync(single, JSON.stringify({ hidden: 512, heads: 8 }));
  assert.equal(parseArchitectures([single])[0]?.name, 'wide');
});
