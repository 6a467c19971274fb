import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';
import { watchChildren } from '../../helpers/child-watch.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inferbench generate runs each engine in a child process and is recorded in the history (list, show, rerun)', async () => {
  const out = testOutputDir('generate-isolated-history');
  const { seen, onStderr: watch } = watchChildren();
  const args = ['--engines', 'onnx-cpu', '--batch-sizes', '1', '--prompt-lengths', '8', '--new-tokens', '4', '--runs', '40', '--rounds', '1', '--warmup', '0', '--no-png', '--out', out];
  const r = await runCli(['generate', ...args], { onStderr: watch });
  assert.equal(r.code, 0, r.stderr);
  assert.ok([...seen].some((c) => c.includes('scenario-child.js generate')), `a generation child process ran; children seen: ${[...seen].join(' | ') || 'none'}`);
  assert.match(r.stdout, /History: benchmark 1 \(inferbench show 1 --out/);

  const list = await runCli(['list', '--out', out, '--json']);
  const entries = JSON.parse(list.stdout) as { id: number; state: string; cellsDone: number; config: { command?: string; isolate?: boolean } }[];
  assert.equal(entries.length, 1);
  assert.equal(entries[0]?.state, 'completed');
  assert.equal(entries[0]?.cellsDone, 1);
  assert.equal(entries[0]?.config.command, 'generate');
  assert.equal(entries[0]?.config.isolate, true);

  const show = await runCli(['show', '1', '--details', '--out', out]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /command:\s+generate/);
  assert.match(show.stdout, /TIME TO FIRST TOKEN/, 'show prints the generation tables');

  const rerun = await runCli(['rerun', '1', '--out', out]);
  assert.equal(rerun.code, 0, rerun.stderr);
  assert.match(rerun.stdout, /History: benchmark 2/);
  const after = JSON.parse((await runCli(['list', '--out', out, '--json'])).stdout) as { id: number; rerunOf: number | null; config: { command?: string } }[];
  const second = after.find((e) => e.id === 2);
  assert.equal(second?.rerunOf, 1);
  assert.equal(second?.config.command, 'generate');
});
