import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { writeRunFolder } from '../../helpers/run-folders.js';
import { buildSampleRun } from '../../helpers/sample-run.js';
import { buildSweepRun } from '../../helpers/sweep-run.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('comparing runs with no cells in common is a clean user error that says what each run has', async () => {
  const dir = testOutputDir('compare-none');
  const a = writeRunFolder(dir, buildSampleRun()); // engine-default threads
  // Threads 2 and 4 only: nothing in common with A's engine-default cells (onnx-cpu used 8 threads, the wasm engines 1).
  const sweep = buildSweepRun();
  const b = writeRunFolder(dir, { ...sweep, cells: sweep.cells.filter((c) => c.requestedThreads !== 1) });
  const r = await runCli(['compare', a, b, '--out', join(dir, 'out')]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /error: runs 2025-11-22T13-40-05Z-7f3a and 2025-11-23T09-12-44Z-b81c have no cells in common/u);
  // What keeps every cell apart comes first (no thread count in common), then what differs in part; what they share is said as such.
  assert.match(r.stderr, /they differ in threads used: A 1, 8, default; B 2, 4 · engine: A onnx-cpu, onnx-wasm, tfjs-wasm, tfjs-cpu; B onnx-cpu, onnx-wasm, tfjs-wasm \(the same model mini-bert-l4-h256, batch size 1, 8, 32\)/u);
  assert.match(r.stderr, /fix: measure one run with the other's threads used and engine/u);
  assert.ok(!readdirSync(dir).includes('out'), 'no chart written');
});
