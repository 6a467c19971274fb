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
  // From the spawn: off a terminal the first line on stderr is the first cell's own line, so timing from it gave 0.
  const startedAt = Date.now();
  // One round per cell, so the first cell is recorded whole before the second is cut short; a short warm
  // pass (200 rows) and a long timed part (3000 batches, at batch 32 for the second cell: many times the first
  // cell's work) so Ctrl-C lands among the second cell's timed batches; --min-time 0 pins the stop rule to the
  // batch count, so the first cell has exactly 3000 on any machine.
  const args = ['--batch-sizes', '1,32,64', '--limit', '200', '--min-batches', '3000', '--min-time', '0', '--rounds', '1', '--max-time', '120'];
  const r = await runCli(['run', '--engines', 'onnx-cpu,onnx-wasm', ...args, '--no-png', '--out', out], {
    onStderr: (text, child) => {
      // Interrupt once the first cell's round is done and the second is past its load and warm pass (7 batches)
      // but not through its 3000 timed ones. The second cell takes many times the first (batch 32 against 1),
      // so half the time to the first cell's end (from the spawn, 2 to 5 s) lands inside it on a fast machine
      // and on a loaded one alike.
      if (!sent && /\[1\/6\] onnx-cpu, batch 1: /.test(text)) {
        sent = true;
        const firstCellMs = Date.now() - startedAt;
        setTimeout(() => child.kill('SIGINT'), Math.min(5000, Math.max(2000, firstCellMs * 0.5)));
      }
    },
  });
  assert.ok(sent, `the first cell never finished:\n${r.stderr}`);
  assert.equal(r.code, 130, r.stderr);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  const [runId] = readdirSync(out);
  assert.ok(runId, 'a run folder was created');
  const dir = join(out, runId);
  assert.ok(existsSync(join(dir, 'results.csv')));
  const run = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunRecord;
  assert.equal(run.state, 'interrupted');
  assert.equal(run.cells.length, 6, 'every cell is accounted for');
  const [first, second] = run.cells;
  assert.ok(first?.state === 'completed' && !first.interrupted);
  assert.equal(first.samples.runMs.length, 3000, 'raw samples are kept, in whole passes');
  // The cell Ctrl-C cut short keeps its timed batches, is never VALID, and reads `interrupted` in the CSV.
  assert.ok(second?.state === 'completed' && second.interrupted === true, JSON.stringify(second).slice(0, 300));
  assert.ok(second.samples.runMs.length > 0);
  assert.equal(second.verdict?.status, 'NOISY');
  assert.match(second.verdict?.reasons.join('; ') ?? '', /interrupted/);
  assert.match(readFileSync(join(dir, 'results.csv'), 'utf8'), /,onnx-cpu,[^\n]*,32,,interrupted,/);
  assert.ok(run.cells.slice(2).every((c) => c.state === 'skipped' && /interrupted/.test(c.reason)));
  assert.match(r.stdout, /interrupted/);
  assert.match(r.stdout, /results\.json/);
});
