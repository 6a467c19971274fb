import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inferbench load refuses --max-wait without --max-batch, saying why and how, exit 2, no stack', async () => {
  const r = await runCli(['load', '--rates', '10', '--max-wait', '5', '--out', testOutputDir('load-bad-max-wait')]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--max-wait needs --max-batch/);
  assert.match(r.stderr, /fix: pass --max-batch too, e\.g\. --max-batch 8 --max-wait 5/);
});
