import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { seedEntry, TINY_RUN_ARGS } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('a CLI run is recorded in the history; list shows it newest first and show prints its settings and tables', async () => {
  const out = testOutputDir('cli-history-list');
  const empty = await runCli(['list', '--out', out]);
  assert.equal(empty.code, 0, empty.stderr);
  assert.match(empty.stdout, /No benchmarks/);

  await seedEntry(out, 'an-earlier-run');
  const run = await runCli(['run', ...TINY_RUN_ARGS, '--rounds', '1', '--warmup', '0', '--out', out]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /History: benchmark 2 \(inferbench show 2 --out/);

  const list = await runCli(['list', '--out', out]);
  assert.equal(list.code, 0, list.stderr);
  const rows = list.stdout.split('\n').filter((l) => /^\s*\d+\s+\d{4}-/.test(l));
  assert.equal(rows.length, 2);
  assert.match(rows[0] as string, /^\s*2\s/, 'newest first');
  assert.match(rows[0] as string, /^\s*2\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\s+tiny-bert \(embedded default\)\s+onnx-cpu\s+completed\s+onnx-cpu [\d.]+k? items\/s at batch \d/);

  const json = JSON.parse((await runCli(['list', '--out', out, '--json'])).stdout) as { id: number; state: string; source: string; cellsDone: number }[];
  assert.deepEqual(json.map((e) => [e.id, e.state, e.source, e.cellsDone]), [[2, 'completed', 'cli', 2], [1, 'completed', 'cli', 12]]);

  const show = await runCli(['show', '2', '--out', out]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /^Benchmark 2: completed/);
  assert.match(show.stdout, /batch sizes:\s+1, 2/);
  assert.match(show.stdout, /cells:\s+2\/2/);
  assert.match(show.stdout, /INFERENCE – SPEED/, 'the run tables follow');

  const detail = JSON.parse((await runCli(['show', '2', '--out', out, '--json'])).stdout) as { config: { limit: number; out: string }; cells: unknown[]; environment: { node: string } };
  assert.equal(detail.config.limit, 8);
  assert.equal(detail.config.out, out, 'the stored config is the resolved one, with an absolute output folder');
  assert.equal(detail.cells.length, 2);
  assert.equal(detail.environment.node, process.version);
});

test('show and rm name a missing or unknown id clearly', async () => {
  const out = testOutputDir('cli-history-ids');
  const missing = await runCli(['show', '--out', out]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /inferbench: error: `inferbench show <id>` needs one benchmark id\n\s+fix: write inferbench show <id>/);
  const nowhere = await runCli(['rm', '1', '--yes', '--out', out]);
  assert.equal(nowhere.code, 2);
  assert.match(nowhere.stderr, /inferbench: error: no benchmark history in .*\n\s+fix: pass the --out folder your runs were written to/);
  assert.ok(!existsSync(join(out, 'history.duckdb')), 'looking up does not create a store');
  await seedEntry(out, 'only-run');
  const unknown = await runCli(['rm', '42', '--yes', '--out', out]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /inferbench: error: no benchmark with id 42 in .*history\.duckdb\n\s+fix: run `inferbench list` to see the ids/);
  assert.doesNotMatch(unknown.stderr, /\n\s+at /);
});
