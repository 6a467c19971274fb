import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { TINY_RUN_ARGS } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('--model pointing at a file says a folder is needed, and for an .onnx file which folder', async () => {
  const base = testOutputDir('bad-input-model-file');
  const folder = join(base, 'my-model');
  mkdirSync(join(folder, 'onnx'), { recursive: true });
  const onnx = join(folder, 'onnx', 'model.onnx');
  writeFileSync(onnx, 'not really a graph');
  const loose = join(base, 'model_quantized.onnx');
  writeFileSync(loose, 'not really a graph');
  const text = join(base, 'README.md');
  writeFileSync(text, '# a model card');

  const cases: [string[], RegExp, RegExp][] = [
    [['run', ...TINY_RUN_ARGS, '--model', onnx], /--model .*onnx\/model\.onnx is an \.onnx file, but --model takes the model's folder/, new RegExp(`fix: pass its model folder: --model ${folder} `)],
    [['run', ...TINY_RUN_ARGS, '--model', loose], /model_quantized\.onnx is an \.onnx file/, /put the file in an onnx\/ subfolder/],
    [['run', ...TINY_RUN_ARGS, '--model', text], /--model .*README\.md is a file, not a folder/, /fix: pass --model a folder with config\.json/],
    [['generate', '--model', onnx, '--out', join(base, 'out')], /is an \.onnx file, but --model takes the model's folder/, new RegExp(`--model ${folder} `)],
  ];
  for (const [args, message, fix] of cases) {
    const r = await runCli([...args, '--out', join(base, 'out')]);
    assert.ok(isCleanUserError(r), r.stderr);
    assert.equal(r.code, 2);
    assert.match(r.stderr, message);
    assert.match(r.stderr, fix);
    assert.doesNotMatch(r.stderr, /does not exist/);
  }
});
