import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('SIGTERM to `run` after a cell finished keeps it, records the unrun cells as interrupted (SIGTERM) and exits 143', async () => {
  const out = testOutputDir('stop-sigterm-run');
  let sent = false;
  // Two thread counts, each its own open group: the first group's cells are recorded when it ends, and SIGTERM then lands in the second.
  // (onnx-cpu twice rather than onnx-cpu then onnx-wasm: an onnx-wasm child costs about twice the CPU, its wasm tiered up in the background.)
  const r = await runCli(['run', '--engines', 'onnx-cpu', '--threads', '1,2', '--batch-sizes', '1,2,4', '--limit', '64', '--min-batches', '400', '--rounds', '1', '--min-time', '0', '--no-png', '--out', out], {
    onStderr: (text, child) => {
      if (!sent && /\[3\/6\] onnx-cpu/.test(text)) {
        sent = true;
        child.kill('SIGTERM');
      }
    },
  });
  assert.ok(sent, `no cell finished:\n${r.stderr}`);
  assert.equal(r.code, 143, r.stderr);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  const [runId] = readdirSync(out).filter((f) => !f.startsWith('history') && !f.startsWith('.'));
  assert.ok(runId);
  const run = JSON.parse(readFileSync(join(out, runId, 'results.json'), 'utf8')) as RunRecord;
  assert.equal(run.state, 'interrupted');
  for (const c of run.cells.slice(0, 3)) assert.equal(c.state, 'completed', 'the cells measured before SIGTERM are kept');
  // A cell the stop cut or never ran names the signal (one already in flight may still finish whole).
  const cut = run.cells.slice(3).filter((c) => c.state !== 'completed' || c.interrupted === true);
  assert.ok(cut.length > 0, 'the sweep stopped before its last cell');
  for (const c of cut) {
    const why = c.state === 'completed' ? (c.verdict?.reasons.join('; ') ?? '') : c.reason;
    assert.match(why, /interrupted \(SIGTERM\)/, JSON.stringify(c).slice(0, 300));
  }
});
