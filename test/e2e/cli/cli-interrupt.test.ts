import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('Ctrl-C in the middle of a sweep writes every cell measured so far, keeps the interrupted cell\'s batches, and exits 130', async () => {
  const out = testOutputDir('interrupt');
  let sent = false;
  let startedAt: number | undefined;
  let cpuLoadMs: number | undefined;
  // One round per cell. One engine load measures all its batch sizes, and its cells are reported together at
  // its end (off a terminal nothing else reaches stderr), so the time from the run's first line to onnx-cpu's
  // first cell is one whole load of onnx-cpu. onnx-wasm does the same work about twice as slowly, so Ctrl-C 40%
  // of that time after onnx-cpu's last cell lands among onnx-wasm's timed batches (3000 per batch size, after a
  // short warm pass of 200 rows) on a fast machine and on a loaded one alike. --min-time 0 pins the stop rule to
  // the batch count, so each completed cell has exactly 3000 on any machine.
  const args = ['--batch-sizes', '1,2,4', '--limit', '200', '--min-batches', '3000', '--min-time', '0', '--rounds', '1', '--max-time', '120'];
  const r = await runCli(['run', '--engines', 'onnx-cpu,onnx-wasm', ...args, '--no-png', '--out', out], {
    onStderr: (text, child) => {
      if (startedAt === undefined && /inferbench: run /.test(text)) startedAt = Date.now();
      if (cpuLoadMs === undefined && startedAt !== undefined && /\[1\/6\] onnx-cpu, batch 1: /.test(text)) cpuLoadMs = Date.now() - startedAt;
      if (!sent && cpuLoadMs !== undefined && /\[3\/6\] onnx-cpu, batch 4: /.test(text)) {
        sent = true;
        setTimeout(() => child.kill('SIGINT'), Math.max(500, cpuLoadMs * 0.4));
      }
    },
  });
  assert.ok(sent, `onnx-cpu's load never finished:\n${r.stderr}`);
  assert.equal(r.code, 130, r.stderr);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  const [runId] = readdirSync(out);
  assert.ok(runId, 'a run folder was created');
  const dir = join(out, runId);
  assert.ok(existsSync(join(dir, 'results.csv')));
  const run = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunRecord;
  assert.equal(run.state, 'interrupted');
  assert.equal(run.cells.length, 6, 'every cell is accounted for');
  for (const cell of run.cells.slice(0, 3)) {
    assert.ok(cell.state === 'completed' && !cell.interrupted, JSON.stringify(cell).slice(0, 300));
    assert.equal(cell.samples.runMs.length, 3000, 'raw samples are kept, in whole passes');
  }
  // The cell Ctrl-C cut short keeps its timed batches, is never VALID, and reads `interrupted` in the CSV;
  // the ones after it are skipped, saying why.
  const wasm = run.cells.slice(3);
  const cut = wasm.findIndex((c) => c.state === 'completed' && c.interrupted === true);
  assert.ok(cut >= 0, `one onnx-wasm cell was cut short: ${JSON.stringify(wasm.map((c) => [c.state, c.state === 'completed' ? c.interrupted : c.reason]))}`);
  const second = wasm[cut];
  assert.ok(second?.state === 'completed');
  assert.ok(second.samples.runMs.length > 0);
  assert.equal(second.verdict?.status, 'NOISY');
  assert.match(second.verdict?.reasons.join('; ') ?? '', /interrupted/);
  assert.match(readFileSync(join(dir, 'results.csv'), 'utf8'), new RegExp(`,onnx-wasm,[^\\n]*,${second.batchSize},,interrupted,`));
  assert.ok(wasm.slice(cut + 1).every((c) => c.state === 'skipped' && /interrupted/.test(c.reason)));
  assert.match(r.stdout, /interrupted/);
  assert.match(r.stdout, /results\.json/);
});
