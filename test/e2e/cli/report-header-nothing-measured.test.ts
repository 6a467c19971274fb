import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { TINY_RUN_ARGS } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('the report of a run whose every cell was skipped says failed in its header, as the history does, in the run and in show', async () => {
  const out = join(testOutputDir('report-header-nothing-measured'), 'out');
  // The embedded model has 128 positions: every cell is skipped.
  // Wide enough for the header's line whole (off a terminal the report fits 80 columns).
  const r = await runCli(['run', ...TINY_RUN_ARGS, '--sequence-lengths', '4096', '--out', out], { env: { COLUMNS: '120' } });
  assert.equal(r.code, 2, r.stderr);
  const header = r.stdout.split('\n').find((l) => /^inferbench \S+ +run /.test(l)) ?? '';
  assert.match(header, /\(failed: every cell was skipped\)$/, header);

  const show = await runCli(['show', '1', '--out', out], { env: { COLUMNS: '120' } });
  assert.match(show.stdout, /Benchmark 1: failed/);
  const shown = show.stdout.split('\n').find((l) => /^inferbench \S+ +run /.test(l)) ?? '';
  assert.match(shown, /\(failed: every cell was skipped\)$/, shown);
  assert.doesNotMatch(show.stdout, /interrupted/, 'a sweep that ran to its end is not called interrupted');
});
