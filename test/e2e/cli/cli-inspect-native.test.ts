import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ModelInspection } from '../../../src/models/inspect-model.js';
import { runCli } from '../../helpers/cli.js';
import { HF_FIXTURES_DIR, loadHfFixture } from '../../helpers/hf-fixtures.js';
import { exported } from '../../helpers/native-exports.js';

test('inspect describes a GraphModel folder: format, signature, TF op counts, and which engines run it', async () => {
  const { dir } = await exported(loadHfFixture('roberta').onnxPath, 'graph-model');
  const r = await runCli(['inspect', '--model', dir]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^model {4}.*model\.json \(/m);
  assert.match(r.stdout, /^format {3}tfjs GraphModel \(inferbench /m);
  assert.match(r.stdout, /input_ids int32 \[batch, dim1\]/);
  assert.match(r.stdout, /logits float32 \[batch, 2\]/);
  assert.match(r.stdout, /GatherNd ×1/, 'GatherElements, which TF lacks, as GatherNd');
  assert.match(r.stdout, /\n {2}tfjs-cpu-graph-model +yes\n/);
  assert.match(r.stdout, /\n {2}onnx-cpu +no: needs an ONNX graph; .* holds a tfjs GraphModel\n/);
  assert.match(r.stdout, /\n {2}tfjs-node-saved-model +no: (needs a TensorFlow SavedModel|unavailable)/);
});

test('inspect --json on a SavedModel folder and, for an ONNX model, whether each native engine can export it', async () => {
  const { dir } = await exported(loadHfFixture('gpt2').onnxPath, 'saved-model');
  // Both folders in one inspect (a JSON array in --model order): every inspect probes every engine (Chromium, a libtensorflow child) first.
  const r = await runCli(['inspect', '--model', dir, '--model', join(HF_FIXTURES_DIR, 'gpt2'), '--json']);
  assert.equal(r.code, 0, r.stderr);
  const [saved, onnx] = JSON.parse(r.stdout) as [ModelInspection, ModelInspection];
  assert.equal(saved.format, 'saved-model');
  assert.equal(saved.opset, null);
  assert.deepEqual(saved.outputs.map((o) => o.name), ['logits']);
  assert.ok(saved.ops.some((o) => o.op === 'Const'));
  assert.equal(saved.engines.find((e) => e.engine === 'tfjs-cpu-graph-model')?.canRun, false);

  assert.equal(onnx.format, 'onnx');
  assert.equal(onnx.engines.find((e) => e.engine === 'tfjs-wasm-graph-model')?.canRun, true);
});
