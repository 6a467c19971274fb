import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const ENGINES = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu'];

test('inferbench run sweeps four engines and writes tables, CSV, JSON and a PNG', async () => {
  const out = testOutputDir('e2e');
  // In this process: isolation is not this test's subject (children-die-with-parent-every-kind runs a run's children). --max-time 120: the default 15 s per cell can cut a
  // round short on a loaded machine (one pass not finished: NOISY, one round), and the round count asserted below
  // must not depend on the machine's speed.
  const r = await runCli(['run', '--engines', ENGINES.join(','), '--batch-sizes', '1,4', '--limit', '12', '--rounds', '2', '--min-time', '0', '--min-batches', '1', '--max-time', '120', '--no-isolate', '--out', out, '--details']);
  assert.equal(r.code, 0, r.stderr);
  for (const title of ['INFERENCE – SPEED', 'MEMORY', 'MODEL SIZE', 'ENVIRONMENT INFORMATION']) assert.ok(r.stdout.includes(title), `missing ${title}`);
  assert.match(r.stdout, /faster than/);
  assert.match(r.stdout, /seeded random/);
  const [runId] = readdirSync(out);
  const dir = join(out, runId ?? '');
  for (const f of ['results.json', 'results.csv', 'comparison.png', 'batch-scaling.png', 'latency-distribution.png']) {
    assert.ok(r.stdout.includes(`Wrote to ${dir}/: `) && r.stdout.includes(f), `path of ${f} printed`);
  }
  // One thread setting: no core-scaling chart, and the run says why instead of writing an empty one.
  assert.match(r.stdout, /Not drawn: core-scaling\.png: core scaling needs 2 or more thread counts/u);
  const run = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as RunRecord;
  assert.equal(run.state, 'completed');
  assert.equal(run.cells.length, 8);
  for (const c of run.cells) {
    assert.equal(c.state, 'completed', JSON.stringify(c));
    if (c.state !== 'completed') continue;
    assert.ok(ENGINES.includes(c.session.engine));
    assert.ok(c.session.backend.length > 0 && Object.keys(c.session.versions).length > 0);
    // One whole timed pass per round (the minimums are 0 s and 1 batch), two rounds pooled.
    assert.equal(c.rounds?.length, 2);
    assert.equal(c.samples.runMs.length, 2 * (c.batchSize === 1 ? 12 : 3));
  }
  const csv = readFileSync(join(dir, 'results.csv'), 'utf8').trim().split('\n');
  assert.equal(csv.length, 9);
  const png = readFileSync(join(dir, 'comparison.png'));
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
});
