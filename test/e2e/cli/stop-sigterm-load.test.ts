import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { LoadRunRecord } from '../../../src/scenarios/load/load-results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('SIGTERM to `load` after a probe finished keeps that probe, records the rest as interrupted (SIGTERM) and exits 143', async () => {
  const out = testOutputDir('stop-sigterm-load');
  let sent = false;
  // Many long probes, so SIGTERM lands after the first (20 req/s) is whole and long before the last.
  const r = await runCli(['load', '--engines', 'onnx-cpu', '--rates', '20,21,22,23,24,25', '--duration', '2', '--warmup', '0.1', '--min-queries', '10', '--no-png', '--out', out], {
    onStderr: (text, child) => {
      if (!sent && /onnx-cpu @ 20(\.0)? req\/s/.test(text)) {
        sent = true;
        child.kill('SIGTERM');
      }
    },
  });
  assert.ok(sent, `no probe finished:\n${r.stderr}`);
  assert.equal(r.code, 143, r.stderr);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  assert.match(r.stderr, /SIGTERM/);
  const [runId] = readdirSync(out).filter((f) => !f.startsWith('history') && !f.startsWith('.'));
  assert.ok(runId, `a run folder: ${readdirSync(out).join(', ')}`);
  const dir = join(out, runId);
  assert.ok(existsSync(join(dir, 'results.csv')));
  const run = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as LoadRunRecord;
  assert.equal(run.state, 'interrupted');
  const [cell] = run.cells;
  assert.ok(cell?.state === 'completed', JSON.stringify(cell).slice(0, 300));
  assert.equal(cell.interrupted, true);
  const whole = cell.probes.find((p) => p.targetRps === 20);
  assert.ok(whole && whole.endedEarly === null, 'the probe that finished before SIGTERM is kept whole');
  assert.ok(cell.probes.every((p) => p.endedEarly === null || p.endedEarly.startsWith('interrupted (SIGTERM)')), JSON.stringify(cell.probes.map((p) => p.endedEarly)));
  assert.ok(cell.probes.length < 6, 'the sweep stopped');
  // Nothing half-written stays in the output folder.
  const leftovers = readdirSync(dir).filter((f) => /\.tmp|partial/.test(f));
  assert.deepEqual(leftovers, []);
});
