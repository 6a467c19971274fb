import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, isCleanUserError } from '../../helpers/cli.js';

test('an unknown --dtype is a user error listing the valid dtypes', async () => {
  const r = await runCli(['run', '--dtype', 'fp32,int3', '--engines', 'onnx-cpu']);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /unknown dtype "int3" in --dtype/);
  assert.match(r.stderr, /fp32, fp16, int8, uint8, q8, q4, q2, q1, q4f16, q2f16, q1f16, bnb4/);
});
