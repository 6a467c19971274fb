import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, isCleanUserError } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('a model folder without onnx/model.onnx is named in the error', async () => {
  const dir = testOutputDir('model-no-onnx');
  writeFileSync(join(dir, 'config.json'), '{}');
  writeFileSync(join(dir, 'tokenizer.json'), '{}');
  const r = await runCli(['run', '--model', dir]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.ok(r.stderr.includes(join(dir, 'onnx/model.onnx')), r.stderr);
});

test('a model folder without tokenizer.json is named in the error', async () => {
  const dir = testOutputDir('model-no-tokenizer');
  mkdirSync(join(dir, 'onnx'));
  writeFileSync(join(dir, 'config.json'), '{}');
  writeFileSync(join(dir, 'onnx', 'model.onnx'), '');
  const r = await runCli(['run', '--model', dir]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.ok(r.stderr.includes(join(dir, 'tokenizer.json')), r.stderr);
});

test('a model folder that does not exist is named in the error', async () => {
  const r = await runCli(['run', '--model', '/nonexistent/model-dir']);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /\/nonexistent\/model-dir does not exist/);
});
