import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';
import { seedEntry } from '../../helpers/dashboard.js';
import { buildSweepRun } from '../../helpers/sweep-run.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('show prints one of the three views with its fixed value, as the dashboard drop-downs pick it', async () => {
  const out = testOutputDir('cli-history-views');
  await seedEntry(out, 'sweep', { record: buildSweepRun() });

  const core = await runCli(['show', '1', '--view', 'core', '--batch-size', '8', '--out', out]);
  assert.equal(core.code, 0, core.stderr);
  assert.match(core.stdout, /CORE SCALING – batch 8/);
  assert.doesNotMatch(core.stdout, /BATCH SCALING|INFERENCE – SPEED/);

  const batch = await runCli(['show', '1', '--threads', '2', '--out', out]);
  assert.equal(batch.code, 0, batch.stderr);
  assert.match(batch.stdout, /BATCH SCALING – 2 threads/);
  assert.doesNotMatch(batch.stdout, /CORE SCALING/);

  const baseline = await runCli(['show', '1', '--view', 'baseline', '--out', out]);
  assert.match(baseline.stdout, /95% CI of mean/);
  assert.doesNotMatch(baseline.stdout, /SCALING/);

  // Issue 47: every table of --details is a view of its own, and an unknown view names them.
  const cold = await runCli(['show', '1', '--view', 'cold-start', '--out', out]);
  assert.equal(cold.code, 0, cold.stderr);
  assert.match(cold.stdout, /COLD START/);
  assert.doesNotMatch(cold.stdout, /INFERENCE – SPEED|LATENCY STATISTICS/);
  const all = await runCli(['show', '1', '--details', '--out', out]);
  for (const title of ['INFERENCE – SPEED', 'LATENCY STATISTICS', 'COLD START', 'MODEL SIZE', 'ENVIRONMENT INFORMATION']) assert.ok(all.stdout.includes(title), title);
  const unknown = await runCli(['show', '1', '--view', 'nope', '--out', out]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /--view must be one of all, summary, baseline, core, batch, speed, .*cold-start/);

  const wrong = await runCli(['show', '1', '--batch-size', '5', '--out', out]);
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /inferbench: error: --batch-size 5 was not measured in this run\n\s+fix: use one of 1, 8, 32/);
});
