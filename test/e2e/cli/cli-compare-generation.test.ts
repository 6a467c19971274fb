import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('compare on two generation runs shows TTFT/TPOT ratios and makes no call; a run against a generate run is a user error', async () => {
  const out = testOutputDir('compare-generation');
  const gen = ['generate', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--prompt-lengths', '8', '--new-tokens', '4', '--runs', '2', '--rounds', '1', '--warmup', '0', '--no-png', '--no-isolate', '--out', out];
  for (let i = 0; i < 2; i++) assert.equal((await runCli(gen)).code, 0);
  const r = await runCli(['compare', '1', '2', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /GENERATION COMPARISON/);
  assert.match(r.stdout, /onnx-cpu\s+\d+\s+1\s+8\s+4\s+[\d.]+ (µs|ms|s)\s+[\d.]+ (µs|ms|s)\s+[\d.]+×/);
  assert.doesNotMatch(r.stdout.split('No faster/slower call')[0] ?? '', /faster|slower/, 'no cell is called faster or slower');
  assert.match(r.stdout, /No faster\/slower call/);

  const run = await runCli(['run', '--engines', 'onnx-cpu', '--batch-sizes', '1', '--limit', '4', '--min-time', '0', '--min-batches', '1', '--rounds', '1', '--warmup', '0', '--no-png', '--no-isolate', '--out', out]);
  assert.equal(run.code, 0, run.stderr);
  const mixed = await runCli(['compare', '1', '3', '--out', out]);
  assert.equal(mixed.code, 2);
  assert.match(mixed.stderr, /is from inferbench generate and run .* from inferbench run\n\s+fix: compare two runs of the same command/);
  assert.doesNotMatch(mixed.stderr, /at \w+ \(/, 'no stack trace');
});
