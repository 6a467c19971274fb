import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { TINY_RUN_ARGS } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('a run in which no cell completed exits non-zero, lists the reasons and is recorded as failed', async () => {
  const out = join(testOutputDir('bad-input-nothing-measured'), 'out');
  // The embedded model has 128 positions: every cell is skipped.
  const r = await runCli(['run', ...TINY_RUN_ARGS, '--sequence-lengths', '4096', '--out', out]);
  assert.ok(isCleanUserError(r), r.stderr);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /inferbench: error: nothing was measured: every cell was skipped/);
  assert.match(r.stderr, /skipped \(2 cells\): .*4096/, 'the reason is listed with its cell count');
  assert.match(r.stdout, /results\.json/, 'the files recording every skipped cell are still written');

  const list = await runCli(['list', '--json', '--out', out]);
  const [entry] = JSON.parse(list.stdout) as { id: number; state: string; error: string | null; dir: string }[];
  assert.equal(entry?.state, 'failed');
  assert.match(entry?.error ?? '', /nothing was measured: every cell was skipped \(skipped \(2 cells\): .*4096/);
  assert.ok(entry && existsSync(join(entry.dir, 'results.json')));

  const show = await runCli(['show', String(entry?.id), '--out', out]);
  assert.equal(show.code, 0);
  assert.match(show.stdout, /Benchmark \d+: failed \(nothing was measured/);
});
