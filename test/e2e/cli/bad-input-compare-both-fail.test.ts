import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('compare with two bad runs prints one clean error, not an unhandled rejection of the other side', async () => {
  const out = join(testOutputDir('bad-input-compare-both-fail'), 'out');
  // Both sides fail: /nope is no run, and 2 is no history id (the folder has no history).
  const r = await runCli(['compare', '/nope', '2', '--out', out]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.equal(r.code, 2);
  assert.equal(r.stderr.match(/inferbench: error:/g)?.length, 1, r.stderr);
  assert.match(r.stderr, /\/nope/);
  assert.doesNotMatch(r.stderr, /internal error|UserError|Unhandled|\n\s+at /);
});
