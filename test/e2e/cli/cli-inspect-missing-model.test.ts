import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inspect on a folder that does not exist is a clean user error naming it', async () => {
  const r = await runCli(['inspect', '--model', '/nonexistent/inspect-dir']);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, /model \/nonexistent\/inspect-dir does not exist/);
  assert.match(r.stderr, /fix: pass --model a Hugging Face folder/);
});

test('inspect on a folder without an ONNX file names the paths it looked for', async () => {
  const dir = testOutputDir('inspect-no-onnx');
  writeFileSync(join(dir, 'config.json'), '{}');
  const r = await runCli(['inspect', '--model', dir]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.ok(r.stderr.includes(join(dir, 'onnx', 'model.onnx')), r.stderr);
});

test('inspect on a file that is not ONNX is a clean user error', async () => {
  const dir = testOutputDir('inspect-corrupt');
  writeFileSync(join(dir, 'model.onnx'), 'not a protobuf at all');
  const corrupt = await runCli(['inspect', '--model', join(dir, 'model.onnx')]);
  assert.ok(isCleanUserError(corrupt), corrupt.stderr);
  assert.match(corrupt.stderr, /cannot read .*model\.onnx as an ONNX model/);
});

test('inspect --engines with an unknown or no engine is a clean user error naming the flag', async () => {
  const unknown = await runCli(['inspect', '--engines', 'onnx-cpu,onnx-gpu9000']);
  assert.ok(isCleanUserError(unknown), unknown.stderr);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown engine "onnx-gpu9000" in --engines/);
  assert.match(unknown.stderr, /fix: use one or more of: onnx-cpu, /);
  const none = await runCli(['inspect', '--engines', ',']);
  assert.ok(isCleanUserError(none), none.stderr);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /--engines names no engine/);
});
