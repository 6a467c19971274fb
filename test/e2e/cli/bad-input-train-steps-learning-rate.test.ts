import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inferbench train refuses --steps 0, --learning-rate 0 (and negative) and an unknown --optimizer before loading anything', async () => {
  const out = testOutputDir('train-bad-numbers');
  const cases: [string[], RegExp][] = [
    [['--steps', '0'], /--steps must be positive whole numbers, got "0"/],
    [['--learning-rate', '0'], /--learning-rate must be a number above 0 and at most 1000/],
    [['--learning-rate', '-0.1'], /--learning-rate must be a number ≥ 0|--learning-rate must be a number above 0/],
    [['--optimizer', 'rmsprop'], /--optimizer must be sgd or adam, got "rmsprop"/],
  ];
  for (const [flags, message] of cases) {
    const r = await runCli(['train', ...flags, '--out', out]);
    assert.ok(isCleanUserError(r), `${flags.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.match(r.stderr, /fix:/);
  }
});
