import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { writeRunFolder } from '../../helpers/run-folders.js';
import { buildSweepRun } from '../../helpers/sweep-run.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('inferbench compare prints per-cell calls and writes the comparison chart', async () => {
  const dir = testOutputDir('compare-chart');
  const a = buildSweepRun({ id: 'run-a', rounds: 5 });
  const b = buildSweepRun({ id: 'run-b', rounds: 5, seedOffset: 7, slowdown: (engine) => (engine === 'onnx-cpu' ? 0.62 : engine === 'tfjs-wasm' ? 1.3 : 1.01) });
  const folderA = writeRunFolder(dir, a);
  const folderB = writeRunFolder(dir, b);
  const out = join(dir, 'out');
  // A run folder and a results.json path are both accepted.
  const r = await runCli(['compare', folderA, join(folderB, 'results.json'), '--details', '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stdout.includes('RUN COMPARISON – B against A'));
  assert.match(r.stdout, /onnx-cpu · 4 threads · batch 8 +10\.7 ms \(10\.6 – 10\.9 ms, 5 rounds\) .* 0\.620× \(0\.6\d\d–0\.6\d\d\) +<0\.001 +B 1\.61× faster \(p < 0\.001\)/u);
  assert.match(r.stdout, /onnx-wasm · 2 threads · batch 8 .* 1\.010× \(0\.9\d\d–1\.0\d\d\) +0\.\d{3} +(no difference \(0\.9\d×–1\.0\d×, within the ±5% equivalence bound\)|inconclusive \(0\.9\d×–1\.\d\d×\): more rounds would tell \(--rounds \d+\))/u);
  assert.match(r.stdout, /tfjs-wasm · 1 thread · batch 8 .* B 1\.30× slower \(p < 0\.001\) +VALID \/ VALID ✗ PARITY in A and B/u);
  assert.match(r.stdout, /Method: each round's mean engine time per batch is one observation; .*t-test of log\(B\/A\).*excludes 1/su);
  assert.match(r.stdout, /NOISY \/ NOISY/u);
  const tally = /B is faster in 9, slower in 3, shows no difference \(within ±5%\) in (\d+) and is inconclusive in (\d+) of 27 common cells/u.exec(r.stdout.replace(/\n/gu, ' '));
  assert.ok(tally && Number(tally[1]) + Number(tally[2]) === 8, r.stdout);
  const chart = join(out, 'compare-run-a-vs-run-b.png');
  assert.ok(r.stdout.includes(chart), 'chart path printed');
  const png = readFileSync(chart);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(png.length > 10_000, 'a real picture');
});
