import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { writeRunFiles } from '../../reports/write-run.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { buildSweepRun } from '../helpers/sweep-run.js';
import { testOutputDir } from '../helpers/test-cache.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

test('a run folder gets every view chart, and a view with fewer than 2 points is reported instead of drawn empty', async () => {
  const sweepDir = testOutputDir('charts-sweep');
  const skipped: string[] = [];
  const written = await writeRunFiles(buildSweepRun(), sweepDir, { png: true, onChartSkipped: (file) => skipped.push(file) });
  const names = [
    'results.json',
    'results.csv',
    'results.parquet',
    'results.arrow',
    'samples.parquet',
    'samples.arrow',
    'comparison.png',
    'core-scaling.png',
    'batch-scaling.png',
    'latency-distribution.png',
  ];
  assert.deepEqual(written, names.map((n) => path.join(sweepDir, n)));
  assert.deepEqual(skipped, []);
  for (const name of names.filter((n) => n.endsWith('.png'))) {
    const png = await fsp.readFile(path.join(sweepDir, name));
    assert.deepEqual([...png.subarray(0, 8)], PNG_SIGNATURE, name);
  }

  // Engine-default threads only: no thread axis, so no core-scaling chart, and the reason is given.
  const oldDir = testOutputDir('charts-default-threads');
  const reasons = new Map<string, string>();
  const oldWritten = await writeRunFiles(buildSampleRun(), oldDir, { png: true, onChartSkipped: (file, why) => reasons.set(file, why) });
  assert.ok(!oldWritten.some((p) => p.endsWith('core-scaling.png')));
  assert.ok(oldWritten.some((p) => p.endsWith('batch-scaling.png')));
  assert.deepEqual([...reasons.keys()], ['core-scaling.png']);
  assert.match(reasons.get('core-scaling.png') ?? '', /needs 2 or more thread counts/u);
  assert.ok(!(await fsp.readdir(oldDir)).includes('core-scaling.png'));
});
