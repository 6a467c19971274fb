/**
 * Issue 47, items 1 and 7 for `compare`: two default-shaped runs (7 engines
 * × batch 1 and 8, 3 rounds) compared at COLUMNS=100 make one screen (at
 * most 45 lines) that opens with the tally of calls, then a call per cell;
 * the method in full moves behind `--details`. At COLUMNS=80 no line is
 * wider, and `--wide` prints every column whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { CompletedCell, RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { writeRunFolder } from '../../helpers/run-folders.js';
import { cellFromRounds, runOf } from '../../helpers/round-cells.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ENGINES = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model', 'transformers-js'];

/** A default run's shape; `slower` makes one engine 1.5× slower in every round. */
function defaultRun(id: string, slower?: string): RunRecord {
  const cells: CompletedCell[] = ENGINES.flatMap((engine, e) =>
    [1, 8].map((batchSize) => {
      const ms = (1 + e * 3) * batchSize * (engine === slower ? 1.5 : 1);
      return cellFromRounds({ model: 'tiny-bert (embedded default)', engine, batchSize, rows: 16, rounds: [0.98, 1, 1.02].map((f) => ({ passes: 1, meanMs: ms * f })) });
    }),
  );
  const run = runOf(cells);
  return { ...run, id, config: { ...run.config, engines: ENGINES, batchSizes: [1, 8], limit: 16 } };
}

/** Lines wider than `width`, leaving out a results.json path on a line of its own, which stays whole to be copied. */
function over(text: string, width: number): string[] {
  return text.split('\n').filter((l) => [...l].length > width && !/^\s*\(?\/\S+\)?$/u.test(l));
}

test('COLUMNS=100: compare of two default runs is one screen opening with the tally of calls; --details has the method; it fits 80 columns and --wide keeps it whole', async () => {
  const dir = testOutputDir('compare-one-screen');
  const a = writeRunFolder(dir, defaultRun('screen-a'));
  const b = writeRunFolder(dir, defaultRun('screen-b', 'tfjs-cpu'));
  const out = join(dir, 'out');
  const r = await runCli(['compare', a, b, '--out', out, '--no-png'], { env: { COLUMNS: '100' } });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.ok(lines.length <= 45, `${lines.length} lines:\n${r.stdout}`);
  // The two runs, a blank line, then the answer: the tally before the table.
  const blank = lines.indexOf('');
  assert.match(lines.slice(blank + 1).join(' '), /^B is faster in 0, slower in 2, shows no difference \(within ±5%\) in \d+ and is inconclusive in \d+ of 14 common cells/u, r.stdout);
  const table = lines.findIndex((l) => l.startsWith('='));
  assert.ok(table > blank + 1, 'the tally comes before the table');
  // A grid: a row per engine, a column per batch size, the call in each.
  assert.match(lines[table + 2] ?? '', /^cell +batch 1 +batch 8$/u);
  for (const engine of ENGINES) assert.match(lines.slice(table).join('\n'), new RegExp(`^${engine} +(no difference|inconclusive|[\\d.]+× (faster|slower)) +(no difference|inconclusive|[\\d.]+× (faster|slower))$`, 'mu'), `${engine} has a call per batch size`);
  assert.match(r.stdout, /tfjs-cpu[^\n]* slower/u);
  assert.doesNotMatch(r.stdout, /Method: each round's mean/u);
  assert.match(r.stdout.replace(/\n/gu, ' '), /--details for the method in full/u);

  const details = await runCli(['compare', a, b, '--out', out, '--no-png', '--details'], { env: { COLUMNS: '100' } });
  assert.equal(details.code, 0, details.stderr);
  assert.match(details.stdout, /Method: each round's mean engine time per batch is one observation/u);

  const narrow = await runCli(['compare', a, b, '--out', out, '--no-png'], { env: { COLUMNS: '80' } });
  assert.equal(narrow.code, 0, narrow.stderr);
  assert.deepEqual(over(narrow.stdout, 80), [], 'compare at 80 columns');
  const wide = await runCli(['compare', a, b, '--out', out, '--no-png', '--wide'], { env: { COLUMNS: '80' } });
  assert.ok(wide.stdout.split('\n').some((l) => [...l].length > 80), '--wide is not cut to COLUMNS');
  assert.doesNotMatch(wide.stdout, /To fit \d+ columns/u);
});
