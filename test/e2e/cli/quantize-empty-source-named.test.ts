import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { userModelCopy } from '../../helpers/user-model-copy.js';

test('q8-static from a 0-byte onnx/model.onnx names the empty file and the fix, instead of "init() must be awaited"', async () => {
  const model = await userModelCopy('quantize-empty-source');
  writeFileSync(join(model, 'onnx', 'model.onnx'), '');
  const r = await runCli(['run', '--model', model, '--dtype', 'q8-static', '--calibration-rows', '4', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--limit', '8', '--no-png', '--out', testOutputDir('quantize-empty-source-out')], { timeoutMs: 120_000 });
  assert.ok(isCleanUserError(r), r.stderr);
  assert.match(r.stderr, new RegExp(`${join(model, 'onnx', 'model.onnx').replace(/[.]/g, '\\.')} is empty \\(0 bytes\\), not an ONNX model`));
  assert.match(r.stderr, /fix: export the model again/);
  assert.doesNotMatch(r.stderr + r.stdout, /must be awaited/);
});
