import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('an isolated run on a dataset without labels still checks every cell against the reference and prints the parity table', async () => {
  const out = testOutputDir('parity-unlabelled');
  const dataset = join(out, 'texts.jsonl');
  writeFileSync(dataset, Array.from({ length: 12 }, (_, i) => JSON.stringify({ text: `an unlabelled review, number ${i}${' and more'.repeat(i % 4)}` })).join('\n'));
  // One round and one pass past the warm one: isolation and parity are the subject, not the round count or the stop rule
  // (each round is a fresh child per engine; the default 20 batches took 7 passes over these 12 rows). transformers-js is the
  // engine checked, not onnx-wasm: no engine is this test's subject, and onnx-wasm's child costs about 3.7 CPU-s more
  // (V8 compiles ORT's 14 MB wasm), where transformers.js's runs on onnxruntime-node.
  const r = await runCli(['run', '--details', '--engines', 'onnx-cpu,transformers-js', '--dataset', dataset, '--batch-sizes', '4', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--no-png', '--out', join(out, 'runs')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /OUTPUT PARITY/);
  assert.match(r.stdout, /transformers-js .*✓ ok/u);
  const [runId] = readdirSync(join(out, 'runs'));
  const run = JSON.parse(readFileSync(join(out, 'runs', runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const checked = run.cells.find((c) => c.engine === 'transformers-js');
  assert.ok(checked?.state === 'completed');
  assert.equal(checked.parity?.rows, 12);
  assert.equal(checked.parity?.reference, 'onnx-cpu');
  assert.equal(checked.accuracy, null);
});
