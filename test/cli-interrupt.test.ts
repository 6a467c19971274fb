import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../src/core/results.js';
import { runCli } from './fixtures/cli.js';
import { testOutputDir } from './fixtures/test-cache.js';

test('Ctrl-C in the middle of a sweep writes every cell measured so far and exits 130', async () => {
  const out = testOutputDir('interrupt');
  let sent = false;
  const r = await runCli(['run', '--engines', 'onnx-cpu,onnx-wasm', '--batch-sizes', '1,2,4', '--limit', '2000', '--no-png', '--out', out], {
    onStderr: (text, child) => {
      // Interrupt once the first cell is done and the second is under way.
      if (!sent && /\[1\/6\] onnx-cpu batch 1: /.test(text)) {
        sent = true;
        child.kill('SIGINT');
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
  assert.equal(run.cells[0]?.state, 'completed');
  assert.ok((run.cells[0]?.state === 'completed' ? run.cells[0].samples.runMs.length : 0) >= 1000, 'raw samples are kept');
  assert.ok(run.cells.slice(1).some((c) => c.state !== 'completed' && /interrupted/.test(c.reason)));
  assert.match(r.stdout, /results\.json/);
});
