import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('--calibration-rows at or above the dataset size is refused before anything is quantized, naming the flag and the row count', async () => {
  const dir = testOutputDir('calibration-rows');
  const dataset = join(dir, 'small.jsonl');
  writeFileSync(dataset, Array.from({ length: 20 }, (_, i) => JSON.stringify({ text: `review number ${i} was ${i % 2 ? 'great' : 'awful'}`, label: i % 2 })).join('\n'));
  for (const rows of ['5000', '20']) {
    const r = await runCli(['run', '--dtype', 'fp32,q8-static', '--calibration-rows', rows, '--dataset', dataset, '--engines', 'onnx-cpu', '--out', join(dir, 'out'), '--no-png']);
    assert.ok(isCleanUserError(r), r.stderr);
    assert.match(r.stderr, new RegExp(`--calibration-rows \\(calibrationRows\\) ${rows} is not below the 20 rows of dataset`));
    assert.match(r.stderr, /fix: lower --calibration-rows \(calibrationRows\) to 19 or fewer/);
  }
  const bad = await runCli(['run', '--dtype', 'q8-static', '--calibration-rows', '0', '--out', join(dir, 'out'), '--no-png']);
  assert.ok(isCleanUserError(bad), bad.stderr);
  assert.match(bad.stderr, /--calibration-rows/);
  const method = await runCli(['run', '--dtype', 'q8-static', '--calibration-method', 'entropy', '--out', join(dir, 'out'), '--no-png']);
  assert.ok(isCleanUserError(method), method.stderr);
  assert.match(method.stderr, /--calibration-method must be one of minmax, percentile, got "entropy"/);
});
