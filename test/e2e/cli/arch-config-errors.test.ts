import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../../../src/core/errors.js';
import { parseArchitectures, parseArchitectureText } from '../../../src/models/generated/arch-parse.js';
import { runCli, isCleanUserError } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const userError = (pattern: RegExp) => (err: unknown) => err instanceof UserError && pattern.test(err.message) && !!err.fix;

test('a bad config key is named, with the valid keys in the fix', () => {
  assert.throws(() => parseArchitectureText('hiden=384,layers=6'), (err: unknown) => userError(/unknown config key "hiden"/)(err) && /hidden/.test((err as UserError).fix ?? ''));
  assert.throws(() => parseArchitectureText('layers=0'), userError(/config key layers must be a positive whole number/));
  assert.throws(() => parseArchitectureText('layers'), userError(/unknown preset "layers"/));
  assert.throws(() => parseArchitectureText('layers6,heads=2'), userError(/"layers6" is not key=value/));
  const dir = testOutputDir('arch-bad-json');
  const file = join(dir, 'bad.json');
  writeFileSync(file, JSON.stringify([{ hidden: 64, dropout: 0.1 }]));
  assert.throws(() => parseArchitectures([file]), userError(/bad\.json\[0\]: unknown config key "dropout"/));
});

test('a hidden size not divisible by the heads names the keys', () => {
  assert.throws(() => parseArchitectureText('hidden=100,heads=3'), userError(/config key hidden: hidden=100 is not divisible by heads=3/));
  // heads from the base preset is named as such.
  assert.throws(() => parseArchitectureText('base=bert-base,hidden=100'), userError(/hidden=100 is not divisible by heads \(from bert-base\)=12/));
});

test('inferbench run --config with a bad key exits with the message and no stack', async () => {
  const r = await runCli(['run', '--config', 'hidden=384,lyers=6', '--engines', 'onnx-cpu']);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /--config hidden=384,lyers=6: unknown config key "lyers"/);
});
