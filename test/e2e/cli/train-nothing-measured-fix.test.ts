import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('train on engines that cannot train fails with a fix naming the engines that can', async () => {
  const out = testOutputDir('train-nothing-measured-fix');
  const r = await runCli(['train', '--engines', 'onnx-cpu,transformers-js', '--batch-sizes', '4', '--steps', '2', '--warm-steps', '0', '--rounds', '1', '--no-png', '--out', out]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.equal(r.code, 2);
  const fix = /\n {2}fix: (.*)/.exec(r.stderr)?.[1] ?? '';
  assert.match(fix, /^onnx-cpu, transformers-js cannot train; pass --engines \S*tfjs-cpu\S*, the engines that can train here/, fix);
  assert.match(fix, /tfjs-wasm/);
  assert.doesNotMatch(fix, /change the settings named above/);
});
