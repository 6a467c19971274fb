import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../src/core/results.js';
import { defaultClassifier } from '../src/models/default-classifier.js';
import { runCli } from './fixtures/cli.js';
import { testOutputDir, useTestCache } from './fixtures/test-cache.js';

test('a variant file missing from a model folder skips that row with the file name; the others run', async () => {
  useTestCache();
  const source = (await defaultClassifier()).dir;
  const dir = join(testOutputDir('variant-missing'), 'my-model');
  cpSync(source, dir, { recursive: true, filter: (path) => !/model_\w+\.onnx$/.test(path) });
  // A --model folder brings its own variants: none is written into it, even when inferbench once generated it.
  const out = testOutputDir('variant-missing-out');
  const r = await runCli(['run', '--model', dir, '--dtype', 'fp32,q4', '--engines', 'onnx-cpu', '--batch-sizes', '4', '--limit', '4', '--out', out, '--no-png']);
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const q4 = run.cells.find((c) => c.model === 'my-model · q4');
  assert.equal(q4?.state, 'skipped');
  assert.match(q4?.state === 'skipped' ? q4.reason : '', /onnx\/model_q4\.onnx not found in .*my-model/);
  assert.equal(run.cells.find((c) => c.model === 'my-model · fp32')?.state, 'completed');
  assert.equal(readdirSync(join(dir, 'onnx')).join(','), 'model.onnx', 'nothing written into the user folder');
  assert.match(r.stdout, /my-model · q4 +missing/);
});
