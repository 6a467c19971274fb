import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TrainingRunRecord } from '../../../src/scenarios/train/training-results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('Ctrl-C during a training round stops after the step in progress (not the whole round), and the cell is recorded as interrupted', async () => {
  const out = testOutputDir('train-ctrl-c');
  let sent = false;
  const r = await runCli(['train', '--engines', 'tfjs-cpu', '--steps', '150', '--warm-steps', '0', '--rounds', '1', '--batch-sizes', '8', '--no-png', '--out', out], {
    onStderr: (text, child) => {
      // The round has begun (its trainer is opened): Ctrl-C at once, as the round begins. The round checks
      // for it after each step, so it stops after the step in progress whatever the machine's speed or load (a fixed
      // delay, 1.5 s once, raced the 150 steps: a fast machine could finish them all first).
      // No warm step, so the first step is measured and the cut round is kept.
      if (!sent && /round 1\/1 tfjs-cpu batch 8/.test(text)) {
        sent = true;
        child.kill('SIGINT');
      }
    },
  });
  assert.ok(sent, `the round never began:\n${r.stderr}`);
  assert.equal(r.code, 130, r.stderr);
  const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
  const run = JSON.parse(readFileSync(join(out, runId!, 'results.json'), 'utf8')) as TrainingRunRecord;
  const cell = run.cells[0];
  assert.equal(cell?.state, 'completed', JSON.stringify(cell).slice(0, 300));
  if (cell?.state !== 'completed') return;
  assert.ok(cell.stepLog.length < 150, `the round ran on to step ${cell.stepLog.length} of 150 after Ctrl-C`);
  assert.equal(cell.interrupted, true);
  assert.equal(cell.verdict.status, 'NOISY', 'an interrupted cell is never VALID');
  assert.match(readFileSync(join(out, runId!, 'results.csv'), 'utf8'), /,interrupted,/);
  assert.match(r.stdout, /\binterrupted\b/);
});
