/**
 * Issue 24's done-when for cell identity: a sweep of 2 models × 2 sequence
 * lengths × 2 precisions × 2 batch sizes names every cell unambiguously in
 * its progress lines, verdict lines, every per-cell terminal table and `list`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ARCH = 'hidden=32,layers=1,heads=2,intermediate=64';
const MODELS = ['tiny', ARCH].flatMap((m) => ['fp32', 'q8'].map((d) => `${m} · ${d}`));
/** Every cell's name as progress and verdict lines give it. */
const NAMES = MODELS.flatMap((m) => [1, 2].flatMap((b) => [8, 16].map((s) => `${m}: onnx-cpu, batch ${b}, seq ${s}`)));

/** Data lines of the table titled `title`, up to the next blank line. */
function tableRows(stdout: string, title: string): string[] {
  const at = stdout.indexOf(title);
  assert.ok(at >= 0, `${title} is printed`);
  const body = stdout.slice(at).split('\n\n')[0] ?? '';
  return body.split('\n').filter((l) => MODELS.some((m) => l.startsWith(`${m} `)));
}

test('a 2 models × 2 lengths × 2 precisions × 2 batches sweep names every cell in progress, verdicts, tables and list', async () => {
  const out = testOutputDir('sweep-cells-named');
  const r = await runCli([
    'run', '--config', 'tiny', '--config', ARCH, '--sequence-lengths', '8,16', '--dtype', 'fp32,q8', '--batch-sizes', '1,2',
    '--engines', 'onnx-cpu', '--limit', '8', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--out', out, '--no-png', '--no-isolate', '--details',
  ], { env: { COLUMNS: '160' } }); // wide enough that no model name is cut short, as the tables are read row by row below
  assert.equal(r.code, 0, r.stderr);

  // Progress: one line per cell, each naming model and precision, batch and length; no two alike.
  const progress = [...r.stderr.matchAll(/^\[\d+\/16\] (.+?, batch \d, seq \d+): /gmu)].map((m) => m[1]);
  assert.deepEqual([...progress].sort(), [...NAMES].sort(), r.stderr);
  // Rounds are a status line overwritten on a terminal (terminal-width.ts); off one (this pipe) the cell's line sums them up.
  assert.doesNotMatch(r.stderr, /^ {2}round \d+\/\d+ /mu, 'no per-round lines in a log');

  // Verdicts: one round each, so every cell is NOISY; each is named in full under its reason, none by engine and batch alone.
  const stats = r.stdout.slice(r.stdout.indexOf('INFERENCE – LATENCY STATISTICS'));
  const verdicts = stats.slice(0, stats.indexOf('\n\n')).replace(/\n {4}/gu, ' ');
  assert.doesNotMatch(verdicts, /^NOISY onnx-cpu, batch/mu);
  for (const name of NAMES) assert.ok(verdicts.includes(name), `${name} is named among the verdicts:\n${verdicts}`);

  // Every per-cell table: 16 rows, no two with the same model, batch and length.
  for (const title of ['INFERENCE – SPEED', 'INFERENCE – LATENCY STATISTICS', 'MEMORY – GROWTH', 'COLD START', 'OUTPUT PARITY']) {
    const keys = tableRows(r.stdout, title).map((l) => {
      const m = /^(.+? · (?:fp32|q8)) +onnx-cpu +\S+ +(\d) +(\d+) /u.exec(l);
      assert.ok(m, `${title} row names model, engine, threads, batch and seq: ${l}`);
      return `${m[1]}|${m[2]}|${m[3]}`;
    });
    assert.equal(new Set(keys).size, 16, `${title}: ${keys.join(', ')}`);
  }

  // list: the best figure says which model, precision and length it was.
  const list = await runCli(['list', '--out', out]);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, new RegExp(`(tiny|${ARCH.replace(/[=,]/gu, '.')}) · (fp32|q8): onnx-cpu [\\d.]+k? items/s at batch \\d, seq (8|16)`, 'u'));
});
