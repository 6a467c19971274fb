import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { runCli, isCleanUserError } from '../../helpers/cli.js';

test('--threads 0 is rejected naming the flag', async () => {
  const r = await runCli(['run', '--threads', '0']);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /--threads must be positive whole numbers, got "0"/);
});

test('--threads above 4 × the core count is rejected with the limit', async () => {
  const tooMany = availableParallelism() * 4 + 1;
  const r = await runCli(['run', '--threads', `1,${tooMany}`]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, new RegExp(`--threads must be a whole number from 1 to ${availableParallelism() * 4} threads \\(4 × the ${availableParallelism()} cores of this machine\\), got ${tooMany}`));
});
