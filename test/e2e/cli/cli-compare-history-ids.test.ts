import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { seedEntry } from '../../helpers/dashboard.js';
import { buildSweepRun } from '../../helpers/sweep-run.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('compare takes history ids (and run folder ids) as well as run folders', async () => {
  const out = testOutputDir('cli-compare-ids');
  const a = await seedEntry(out, 'run-a', { record: buildSweepRun() });
  await seedEntry(out, 'run-b', { record: buildSweepRun() });

  const byIds = await runCli(['compare', '1', '#2', '--out', out]);
  assert.equal(byIds.code, 0, byIds.stderr);
  assert.match(byIds.stdout, /no difference|inconclusive/);
  assert.ok(existsSync(join(out, 'compare-run-a-vs-run-b.png')), 'the chart goes to --out');

  const mixed = await runCli(['compare', a.dir, 'run-b', '--out', out, '--no-png']);
  assert.equal(mixed.code, 0, mixed.stderr);

  const unknown = await runCli(['compare', '1', '9', '--out', out, '--no-png']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /inferbench: error: no benchmark with id 9 in /);
  const noHistory = await runCli(['compare', '1', '2', '--out', join(out, 'elsewhere'), '--no-png']);
  assert.equal(noHistory.code, 2);
  assert.match(noHistory.stderr, /no benchmark history in .*elsewhere to find benchmark 1 in/);
});
