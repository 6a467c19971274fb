import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from './fixtures/cli.js';
import { writeRunFolder } from './fixtures/run-folders.js';
import { buildSampleRun } from './fixtures/sample-run.js';
import { buildSweepRun } from './fixtures/sweep-run.js';
import { testOutputDir } from './fixtures/test-cache.js';

test('comparing runs with no cells in common is a clean user error that says what each run has', async () => {
  const dir = testOutputDir('compare-none');
  const a = writeRunFolder(dir, buildSampleRun()); // engine-default threads
  const b = writeRunFolder(dir, buildSweepRun()); // threads 1, 2, 4
  const r = await runCli(['compare', a, b, '--out', join(dir, 'out')]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /error: runs 2025-11-22T13-40-05Z-7f3a and 2025-11-23T09-12-44Z-b81c have no cells in common/u);
  assert.match(r.stderr, /fix: compare runs of the same model, engines, batch sizes and thread counts/u);
  assert.match(r.stderr, /A has engines onnx-cpu, onnx-wasm, tfjs-wasm, tfjs-cpu; batch 1, 8, 32; threads default/u);
  assert.match(r.stderr, /B has engines onnx-cpu, onnx-wasm, tfjs-wasm; batch 1, 8, 32; threads 1, 2, 4/u);
  assert.ok(!readdirSync(dir).includes('out'), 'no chart written');
});
