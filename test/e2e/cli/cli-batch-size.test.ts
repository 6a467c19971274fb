import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, isCleanUserError } from '../../helpers/cli.js';

for (const bad of ['0', '-8', '2.5', 'eight']) {
  test(`--batch-sizes ${bad} is rejected naming the flag`, async () => {
    const r = await runCli(['run', '--batch-sizes', `1,${bad}`]);
    assert.ok(isCleanUserError(r), r.stderr);
    assert.match(r.stderr, /--batch-sizes must be positive whole numbers/);
    assert.ok(r.stderr.includes(`"${bad}"`), r.stderr);
  });
}
