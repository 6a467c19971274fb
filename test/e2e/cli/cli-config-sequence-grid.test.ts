import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('--config rows named after their configs sweep a batch × sequence-length grid of synthetic inputs', async () => {
  const out = testOutputDir('config-grid');
  const r = await runCli([
    'run', '--details', '--config', 'tiny', '--config', 'hidden=32,layers=1,heads=2,intermediate=64', '--sequence-lengths', '8,16,256',
    '--engines', 'onnx-cpu', '--batch-sizes', '1,2', '--limit', '4', '--warmup', '0', '--min-time', '0', '--min-batches', '1', '--rounds', '1', '--no-isolate', '--out', out, '--no-png',
  ],);
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  assert.deepEqual(run.models.map((m) => m.name), ['tiny', 'hidden=32,layers=1,heads=2,intermediate=64']);
  assert.deepEqual(run.models[1]?.architecture, { hidden: 32, layers: 1, heads: 2, intermediate: 64, vocab: run.models[1]?.architecture?.['vocab'], positions: 128 });
  assert.equal(run.cells.length, 2 * 3 * 2);
  for (const c of run.cells) {
    assert.ok([8, 16, 256].includes(c.sequenceLength ?? -1));
    if (c.sequenceLength === 256) {
      assert.ok(c.state === 'skipped' && /sequence length 256 exceeds .* 128 positions/.test(c.reason), JSON.stringify(c));
    } else {
      assert.equal(c.state, 'completed', JSON.stringify(c));
    }
  }
  // Longer sequences cost more on the same model and batch.
  const mean = (seq: number) => {
    const c = run.cells.find((x) => x.model === 'tiny' && x.batchSize === 2 && x.sequenceLength === seq);
    return c?.state === 'completed' ? c.latency.mean : NaN;
  };
  assert.ok(mean(8) > 0 && mean(16) > 0);
  assert.match(r.stdout, /model +engine +(backend +)?(threads +)?(prec +)?batch +seq +state/);
  assert.match(r.stdout, /^tiny +onnx-cpu +(CPUExecutionProvider +)?(\d+ +)?(fp32 +)?2 +16 +completed/m);
  const csv = readFileSync(join(out, runId ?? '', 'results.csv'), 'utf8');
  assert.match(csv.split('\r\n')[0] ?? '', /sequence_length/);
});
