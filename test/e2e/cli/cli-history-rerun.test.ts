import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HistoryStore } from '../../../src/runs/history/history-store.js';
import { runCli } from '../../helpers/cli.js';
import { TINY_RUN_ARGS } from '../../helpers/dashboard.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('rerun runs the same resolved config as a new entry linked to the old one', async () => {
  const out = testOutputDir('cli-history-rerun');
  const first = await runCli(['run', ...TINY_RUN_ARGS, '--threads', '1', '--rounds', '1', '--warmup', '0', '--out', out]);
  assert.equal(first.code, 0, first.stderr);

  const again = await runCli(['rerun', '1', '--out', out]);
  assert.equal(again.code, 0, again.stderr);
  assert.match(again.stderr, /re-running benchmark 1 with the same settings/);
  assert.match(again.stdout, /History: benchmark 2 /);

  const store = new HistoryStore(out);
  const a = await store.require(1);
  const b = await store.require(2);
  assert.equal(b.rerunOf, 1);
  assert.equal(a.rerunOf, null);
  assert.deepEqual(b.config, a.config, 'the same resolved config');
  assert.notEqual(b.runId, a.runId, 'a new run folder');
  assert.equal(b.cells.length, 2);

  // A run folder id works wherever a number does.
  const byFolder = await runCli(['show', a.runId ?? '', '--out', out]);
  assert.match(byFolder.stdout, /^Benchmark 1: completed/);
});
