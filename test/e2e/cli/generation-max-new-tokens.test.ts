import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UserError } from '../../../src/core/errors.js';
import { BenchmarkWrapper } from '../../../src/scenarios/generate/benchmark-wrapper.js';
import { runCli, isCleanUserError } from '../../helpers/cli.js';
import { scriptedGenerator, streamingModel } from '../../helpers/generation.js';

test('maxNewTokens of 0 or below is rejected with the fix', async () => {
  const wrapped = new BenchmarkWrapper(streamingModel(2), { gpuMemory: false });
  for (const bad of [0, -3, 1.5]) {
    await assert.rejects(wrapped.generate({ input_ids: [[1n]], max_new_tokens: bad }), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.match(err.message, /maxNewTokens must be a whole number of at least 1/);
      assert.match(err.fix ?? '', /maxNewTokens ≥ 1/);
      return true;
    });
  }
  await assert.rejects(wrapped.generate({ input_ids: [[1n]], maxNewTokens: 0 }), /maxNewTokens must be/);
  await assert.rejects(scriptedGenerator([1]).generate({ input_ids: [[1n]], max_new_tokens: 0 }), /max_new_tokens must be a whole number of at least 1/);
  const cli = await runCli(['generate', '--new-tokens', '0', '--engines', 'onnx-cpu']);
  assert.ok(isCleanUserError(cli), cli.stderr);
  assert.match(cli.stderr, /--new-tokens must be positive whole numbers, got "0"/);
});
