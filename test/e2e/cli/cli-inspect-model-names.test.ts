import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';
import { hubRepoFolder } from '../../helpers/hub-model-repo.js';
import { startMockModelHub } from '../../helpers/mock-model-hub.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inspect takes the model names run takes: the embedded default without --model, --config presets, Hub ids', async (t) => {
  const embedded = await runCli(['inspect']);
  assert.equal(embedded.code, 0, embedded.stderr);
  assert.match(embedded.stdout, /^model +\S*tiny-bert\S*\/onnx\/model\.onnx/m, 'the embedded default, generated in the cache as run does');
  assert.match(embedded.stdout, /can run here\n +onnx-cpu +yes/);

  const config = await runCli(['inspect', '--config', 'hidden=32,layers=1,heads=2,intermediate=64', '--json']);
  assert.equal(config.code, 0, config.stderr);
  const inspected = JSON.parse(config.stdout) as { inputs: { name: string }[]; ops: { op: string }[] };
  assert.deepEqual(inspected.inputs.map((i) => i.name), ['input_ids', 'attention_mask', 'token_type_ids']);
  assert.ok(inspected.ops.some((o) => o.op === 'MatMul'));

  const repo = await hubRepoFolder('inspect-hub');
  const hub = await startMockModelHub([{ id: 'acme/tiny-bert', dir: repo }]);
  t.after(() => hub.close());
  const env = { HF_ENDPOINT: hub.url, HF_HUB_CACHE: testOutputDir('inspect-hub-cache'), HF_TOKEN: '', HF_HUB_OFFLINE: '' };
  const both = await runCli(['inspect', '--model', 'acme/tiny-bert', '--config', 'tiny'], { env });
  assert.equal(both.code, 0, both.stderr);
  assert.match(both.stdout, /^== acme\/tiny-bert \(hub:acme\/tiny-bert@main\)$/m);
  assert.match(both.stdout, /^== tiny \(generated: tiny\)$/m);
});
