import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UserError } from '../../../src/core/errors.js';
import { runCli, isCleanUserError } from '../../helpers/cli.js';
import { scriptedGenerator } from '../../helpers/generation.js';

test('a prompt longer than the model context is an error giving both lengths', async () => {
  const generator = scriptedGenerator([1], 16);
  const prompt = [Array.from({ length: 20 }, () => 1n)];
  await assert.rejects(generator.generate({ input_ids: prompt, max_new_tokens: 4 }), (err: unknown) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /the prompt has 20 tokens, longer than the model's context of 16 tokens/);
    return true;
  });
  await assert.rejects(generator.generate({ input_ids: [prompt[0]?.slice(0, 14) ?? []], max_new_tokens: 4 }), /prompt of 14 tokens plus 4 new tokens is 18, longer than the model's context of 16 tokens/);
  const cli = await runCli(['generate', '--prompt-lengths', '2000', '--engines', 'onnx-cpu']);
  assert.ok(isCleanUserError(cli), cli.stderr);
  assert.match(cli.stderr, /the prompt has 2000 tokens, longer than the model's context of 1024 tokens/);
});
