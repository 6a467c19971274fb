import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inferbench load refuses a latency goal without a percentile, naming what is missing and an example, exit 2, no stack', async () => {
  const r = await runCli(['load', '--rates', '10', '--slo', '50ms', '--out', testOutputDir('load-bad-slo')]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--slo 50ms names no percentile/);
  assert.match(r.stderr, /fix: write e\.g\. --slo p99=50ms/);
});
