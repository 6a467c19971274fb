import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RunRecord } from '../../../src/index.js';
import { runCli } from '../../helpers/cli.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('run --model on a folder with only model.json and tokenizer files completes, the GraphModel on tfjs-wasm within parity of tfjs-cpu\'s, ONNX engines skipped with the reason', async () => {
  const dir = testOutputDir('cli-run-native');
  const folder = join(dir, 'distilbert-tfjs');
  const exported = await runCli(['export', '--model', join(HF_FIXTURES_DIR, 'distilbert'), '--format', 'graph-model', '--out', folder]);
  assert.equal(exported.code, 0, exported.stderr);
  const out = join(dir, 'out');
  const r = await runCli([
    'run', '--model', folder, '--engines', 'tfjs-wasm-graph-model,tfjs-cpu-graph-model,onnx-cpu', '--reference', 'tfjs-cpu-graph-model',
    '--batch-sizes', '1,4', '--limit', '8', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--no-png', '--no-isolate', '--out', out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out).filter((n) => n !== 'history.jsonl' && !n.startsWith('.'));
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  assert.equal(run.state, 'completed');
  const wasm = run.cells.filter((c) => c.engine === 'tfjs-wasm-graph-model');
  assert.deepEqual(wasm.map((c) => c.state), ['completed', 'completed']);
  for (const c of wasm) {
    assert.ok(c.state === 'completed' && c.parity, `batch ${c.batchSize}: no parity record`);
    assert.equal(c.parity.reference, 'tfjs-cpu-graph-model');
    assert.ok(c.parity.withinTolerance, `batch ${c.batchSize}: max |diff| ${c.parity.maxAbsDiff}`);
    assert.equal(c.session.executor, 'tfjs-converter GraphModel');
  }
  for (const c of run.cells.filter((x) => x.engine === 'onnx-cpu')) {
    assert.equal(c.state, 'skipped');
    assert.match(c.state === 'skipped' ? c.reason : '', /has no ONNX graph: .* holds only a tfjs GraphModel/);
  }
});
