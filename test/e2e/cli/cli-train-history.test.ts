import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../../helpers/cli.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inferbench train is recorded in the history like run and generate: list, show (with the TRAIN tables) and rerun', async () => {
  const out = testOutputDir('train-history');
  const args = ['--model', join(HF_FIXTURES_DIR, 'distilbert'), '--engines', 'tfjs-wasm', '--batch-sizes', '4', '--steps', '2', '--warm-steps', '0', '--rounds', '1', '--no-png', '--no-isolate', '--out', out];
  const r = await runCli(['train', ...args]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /History: benchmark 1 \(inferbench show 1 --out/);

  const list = await runCli(['list', '--out', out, '--json']);
  const entries = JSON.parse(list.stdout) as { id: number; state: string; cellsDone: number; config: { command?: string; steps?: number } }[];
  assert.equal(entries.length, 1);
  assert.equal(entries[0]?.state, 'completed');
  assert.equal(entries[0]?.cellsDone, 1);
  assert.equal(entries[0]?.config.command, 'train');
  assert.equal(entries[0]?.config.steps, 2);

  const show = await runCli(['show', '1', '--details', '--out', out]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /command: +train/);
  assert.match(show.stdout, /steps: +1 rounds × \(0 warm \+ 2\), sgd lr 0\.01/);
  for (const title of ['TRAIN – SPEED', 'TRAIN – MEMORY', 'TRAIN – LOSS']) assert.ok(show.stdout.includes(title), `show prints ${title}`);

  const rerun = await runCli(['rerun', '1', '--out', out]);
  assert.equal(rerun.code, 0, rerun.stderr);
  assert.match(rerun.stdout, /History: benchmark 2 /);
  const after = JSON.parse((await runCli(['list', '--out', out, '--json'])).stdout) as { id: number; rerunOf: number | null; config: { command?: string } }[];
  const second = after.find((e) => e.id === 2);
  assert.equal(second?.rerunOf, 1);
  assert.equal(second?.config.command, 'train');
});
