import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { childrenOf, cpuMsOf } from '../../helpers/process-tree.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('Ctrl-C in the middle of a sweep writes every cell measured so far, keeps the interrupted cell\'s batches, and exits 130', { skip: process.platform !== 'linux' ? 'reads /proc' : false }, async (t) => {
  const out = testOutputDir('interrupt');
  let sent = false;
  // One round per cell; each open group (onnx-cpu on 1 thread, then on 2) runs in its own child process and measures
  // all its batch sizes; its cells are reported together once that process has ended (off a terminal nothing else
  // reaches stderr). Ctrl-C must land among the second group's timed batches (3000 per batch size, after its open and
  // a warm pass of 20 rows), so it is timed by the work that process has done, its CPU time, against the first
  // process's whole CPU time: the same engine and batches, so the ratio holds on a fast machine and a slow one alike,
  // and CPU time does not stretch with the machine's load as a wall-clock delay does (one, 40% of the first group's
  // wall time, could land in the second's load when the load rose in between). Here: the first process 6-9 CPU-s,
  // the second (its two threads spin between ops) 1.3 to open and warm, 13 in all; Ctrl-C at 60% of the first's,
  // 4-5.5 CPU-s, is 3 times past the one and short of the other. --min-time 0 pins the stop rule to the batch count,
  // so each completed cell has exactly 3000 on any machine.
  // 20 rows: each cell's untimed warm pass (every row once) is 5-20 batches beside its 3000 timed ones. A Ctrl-C landing in
  // one has no timed batch to keep (the cell is skipped as interrupted, rightly), and with 200 rows that window was 100 batches
  // wide at batch 2: one run in about 25 missed the timed batches that way (suite run R, 2026-11-28).
  const args = ['--batch-sizes', '1,2,4', '--threads', '1,2', '--limit', '20', '--min-batches', '3000', '--min-time', '0', '--rounds', '1', '--max-time', '120'];
  const groupCpuMs = new Map<number, number>();
  let firstDone = false;
  let watch: NodeJS.Timeout | undefined;
  const r = await runCli(['run', '--engines', 'onnx-cpu', ...args, '--no-png', '--out', out], {
    onStderr: (text, child) => {
      // Each group's process and its CPU time, read until it ends, in the order they started.
      watch ??= setInterval(() => {
        for (const pid of childrenOf(child.pid as number, 'scenario-child.js classify')) groupCpuMs.set(pid, Math.max(groupCpuMs.get(pid) ?? 0, cpuMsOf(pid)));
        const [first, second] = [...groupCpuMs.values()];
        if (!sent && firstDone && first !== undefined && second !== undefined && second >= 0.6 * first) {
          sent = true;
          t.diagnostic(`Ctrl-C at ${second} ms of the second group's CPU time; the first used ${first} ms`);
          child.kill('SIGINT');
        }
      }, 100);
      firstDone ||= /\[3\/6\] onnx-cpu \(1 thread\), batch 4: /.test(text);
    },
    // Only ends a hang: the sweep's 18,000 timed batches take minutes on a loaded machine.
    timeoutMs: 600_000,
  }).finally(() => clearInterval(watch));
  assert.ok(sent, `the second group never used 60% of the first's CPU time (${JSON.stringify([...groupCpuMs.values()])} ms):\n${r.stderr}`);
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
  const later = run.cells.slice(3);
  assert.ok(later.every((c) => c.requestedThreads === 2));
  const cut = later.findIndex((c) => c.state === 'completed' && c.interrupted === true);
  assert.ok(cut >= 0, `one cell of the second group was cut short: ${JSON.stringify(later.map((c) => [c.state, c.state === 'completed' ? c.interrupted : c.reason]))}`);
  const second = later[cut];
  assert.ok(second?.state === 'completed');
  assert.ok(second.samples.runMs.length > 0);
  assert.equal(second.verdict?.status, 'NOISY');
  assert.match(second.verdict?.reasons.join('; ') ?? '', /interrupted/);
  assert.match(readFileSync(join(dir, 'results.csv'), 'utf8'), new RegExp(`,onnx-cpu,[^\\n]*,${second.batchSize},,interrupted,`));
  assert.ok(later.slice(cut + 1).every((c) => c.state === 'skipped' && /interrupted/.test(c.reason)));
  assert.match(r.stdout, /interrupted/);
  assert.match(r.stdout, /results\.json/);
});
