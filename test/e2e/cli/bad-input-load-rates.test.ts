import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inferbench load refuses a zero, negative or non-numeric rate with the flag, the value and its range, exit 2, no stack', async () => {
  const out = testOutputDir('load-bad-rates');
  for (const [rates, shown] of [['0', /--rates must be a number above 0 and at most 100000 requests\/s, got 0/], ['-5', /got -5/], ['50,abc', /--rates must be numbers of requests per second, got "abc"/]] as const) {
    const r = await runCli(['load', `--rates=${rates}`, '--out', out]);
    assert.ok(isCleanUserError(r), r.stderr);
    assert.equal(r.code, 2);
    assert.match(r.stderr, shown);
    assert.match(r.stderr, /fix:/);
  }
});
