/**
 * STS input is validated, never silently thinned: a bad pair is refused
 * with exit 2 before any engine opens, naming row and field;
 * `--skip-bad-rows` makes it a note with the count; under 3 pairs the
 * Spearman is `n/a: <why>`, in the table and in results.json, never NaN.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CompletedCell, RunRecord } from '../../../src/core/results.js';
import { packageRoot } from '../../../src/core/package-info.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ST = join(packageRoot(), 'test', 'data', 'st', 'mini-embed');
const QUICK = ['--details', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--no-png', '--no-isolate', '--engines', 'onnx-cpu'];

function pairsFile(dir: string, lines: readonly object[]): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'pairs.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}

test('a bad STS pair is refused before opening naming row and field; --skip-bad-rows runs the rest and notes how many it left out', async () => {
  const dir = testOutputDir('sts-bad-pairs');
  const good = (i: number) => ({ sentence1: `the tablet ${i} is fine`, sentence2: `a phone ${i} broke`, score: i % 5 });
  const file = pairsFile(dir, [good(0), good(1), { sentence1: 'x', sentence2: 'y', score: 'high' }, good(3), { sentence1: '', sentence2: 'y', score: 1 }, good(5), good(6)]);
  const refused = await runCli(['run', '--model', ST, '--dataset', file, '--batch-sizes', '4', ...QUICK, '--out', join(dir, 'runs')]);
  assert.equal(refused.code, 2, refused.stderr);
  assert.match(refused.stderr, /2 of 7 STS pairs cannot be scored: row 2 score not a number \("high"\); row 4 sentence1 empty/);
  assert.doesNotMatch(refused.stderr + refused.stdout, /loading|\n\s+at /);
  const skipped = await runCli(['run', '--model', ST, '--dataset', file, '--skip-bad-rows', '--batch-sizes', '4', ...QUICK, '--out', join(dir, 'runs2')]);
  assert.equal(skipped.code, 0, skipped.stderr);
  assert.match(skipped.stdout, /--skip-bad-rows: 2 of 7 STS pairs left out/);
  const run = JSON.parse(readFileSync(join(dir, 'runs2', readdirSync(join(dir, 'runs2'))[0] ?? '', 'results.json'), 'utf8')) as RunRecord;
  assert.equal((run.cells[0] as CompletedCell).sts?.pairs, 5);
});

test('with fewer than 3 pairs the STS table stays, saying n/a and why, and results.json holds null, never NaN', async () => {
  const dir = testOutputDir('sts-two-pairs');
  const file = pairsFile(dir, [{ sentence1: 'a cat', sentence2: 'a dog', score: 1 }, { sentence1: 'the sun', sentence2: 'the moon', score: 2 }]);
  const r = await runCli(['run', '--model', ST, '--dataset', file, '--batch-sizes', '1', ...QUICK, '--out', join(dir, 'runs')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /STS QUALITY/);
  assert.match(r.stdout, /n\/a: 2 pairs,/);
  assert.doesNotMatch(r.stdout, /NaN/);
  const runDir = join(dir, 'runs', readdirSync(join(dir, 'runs'))[0] ?? '');
  const run = JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) as RunRecord;
  assert.deepEqual((run.cells[0] as CompletedCell).sts, { spearman: null, pairs: 2, why: '2 pairs, fewer than 3' });
  assert.doesNotMatch(readFileSync(join(runDir, 'results.csv'), 'utf8'), /NaN/);
});
