import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('train checks every label is a class of the model before training: beyond int32, negative or past the class count is named with its row, value and the class count', async () => {
  const dir = testOutputDir('bad-input-train-labels');
  const cases: [string, string, RegExp][] = [
    // 4294967297 trained as class 1 (int32 wrap); 2147483648 went negative and the loss read 0.
    ['wraps', '4294967297', /row 2 has label 4294967297 in column "label", outside the model's 2 classes \(0 to 1\)/],
    ['negative-after-wrap', '2147483648', /row 2 has label 2147483648 in column "label", outside the model's 2 classes \(0 to 1\)/],
    // A label past the class count blamed the model's logits shape.
    ['past-classes', '5', /row 2 has label 5 in column "label", outside the model's 2 classes \(0 to 1\)/],
    ['negative', '-1', /row 2 has label -1 in column "label", outside the model's 2 classes \(0 to 1\)/],
    ['string', '"7"', /row 2 has label "?7"? in column "label", outside the model's 2 classes \(0 to 1\)/],
  ];
  for (const [name, label, message] of cases) {
    const data = join(dir, `${name}.jsonl`);
    writeFileSync(data, `{"text": "a fine film", "label": 1}\n{"text": "a dull film", "label": ${label}}\n{"text": "fine again", "label": 0}\n`);
    const r = await runCli(['train', '--dataset', data, '--engines', 'tfjs-cpu', '--steps', '1', '--warm-steps', '0', '--rounds', '1', '--batch-sizes', '2', '--no-png', '--out', join(dir, 'out')], { timeoutMs: 120_000 });
    assert.ok(isCleanUserError(r), `${name}: ${r.stderr}`);
    assert.match(r.stderr, message, name);
    assert.match(r.stderr, /fix: give every row a label from 0 to 1, or train a model with more classes/, name);
    assert.doesNotMatch(r.stderr, /logits/, name);
  }
});
