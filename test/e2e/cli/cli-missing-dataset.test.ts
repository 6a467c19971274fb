import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, isCleanUserError } from '../../helpers/cli.js';

test('a dataset path that does not exist is named in the error', async () => {
  const r = await runCli(['run', '--dataset', '/nonexistent/reviews.jsonl', '--engines', 'onnx-cpu']);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /\/nonexistent\/reviews\.jsonl/);
});
