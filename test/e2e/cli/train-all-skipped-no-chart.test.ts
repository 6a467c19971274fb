import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('train whose every cell is skipped writes no empty step-time.png, and says why it is not drawn', async () => {
  const out = testOutputDir('train-all-skipped-no-chart');
  const r = await runCli(['train', '--engines', 'onnx-cpu', '--batch-sizes', '4', '--steps', '2', '--warm-steps', '0', '--rounds', '1', '--out', out]);
  assert.equal(r.code, 2, r.stderr);
  const [runId] = readdirSync(out).filter((f) => f !== 'history.duckdb');
  const dir = join(out, runId ?? '');
  assert.ok(existsSync(join(dir, 'results.json')), 'the data files still record every cell');
  assert.ok(!existsSync(join(dir, 'step-time.png')), 'no chart without a bar');
  assert.doesNotMatch(r.stdout, /step-time\.png\n/, 'not listed as written');
  assert.match(r.stdout, /Not drawn: step-time\.png: no cell completed/);
});
