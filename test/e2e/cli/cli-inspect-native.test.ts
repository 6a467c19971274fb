import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { renderInspection } from '../../../src/cli/inspect-command.js';
import type { ModelInspection } from '../../../src/models/inspect-model.js';
import { runCli, type CliResult } from '../../helpers/cli.js';
import { HF_FIXTURES_DIR, readHfFixture } from '../../helpers/hf-fixtures.js';
import { exported } from '../../helpers/native-exports.js';

/**
 * The engines these tests judge: one that needs an ONNX graph and every
 * native (GraphModel, SavedModel) engine that runs in Node on a CPU. Their
 * GPU and browser twins get the same format verdict; probing them (a Dawn
 * adapter, Chromium launches) would answer nothing these tests look at.
 */
const JUDGED = ['onnx-cpu', 'tfjs-node-saved-model', 'tfjs-node-graph-model', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model'];

type Inspected = { r: CliResult; graph: ModelInspection; saved: ModelInspection; onnx: ModelInspection };
let shared: Promise<Inspected> | undefined;
/**
 * One `inspect --json` of the GraphModel folder, the SavedModel folder and an
 * ONNX model for both tests (a JSON array in --model order), judging the
 * JUDGED engines. The text the CLI prints is renderInspection of the same
 * report.
 */
function inspectAll(): Promise<Inspected> {
  shared ??= (async () => {
    const graphDir = (await exported(readHfFixture('roberta').onnxPath, 'graph-model')).dir;
    const savedDir = (await exported(readHfFixture('gpt2').onnxPath, 'saved-model')).dir;
    const r = await runCli(['inspect', '--model', graphDir, '--model', savedDir, '--model', join(HF_FIXTURES_DIR, 'gpt2'), '--engines', JUDGED.join(','), '--json']);
    assert.equal(r.code, 0, r.stderr);
    const [graph, saved, onnx] = JSON.parse(r.stdout) as [ModelInspection, ModelInspection, ModelInspection];
    return { r, graph, saved, onnx };
  })();
  return shared;
}

test('inspect describes a GraphModel folder: format, signature, TF op counts, and which engines run it', async () => {
  const { r, graph } = await inspectAll();
  assert.equal(r.code, 0, r.stderr);
  const text = renderInspection(graph);
  assert.match(text, /^model {4}.*model\.json \(/m);
  assert.match(text, /^format {3}tfjs GraphModel \(inferbench /m);
  assert.match(text, /input_ids int32 \[batch, dim1\]/);
  assert.match(text, /logits float32 \[batch, 2\]/);
  assert.match(text, /GatherNd ×1/, 'GatherElements, which TF lacks, as GatherNd');
  assert.match(text, /\n {2}tfjs-cpu-graph-model +yes\n/);
  assert.match(text, /\n {2}onnx-cpu +no: needs an ONNX graph; .* holds a tfjs GraphModel\n/);
  assert.match(text, /\n {2}tfjs-node-saved-model +no: (needs a TensorFlow SavedModel|unavailable)/);
});

test('inspect --json on a SavedModel folder and, for an ONNX model, whether each native engine can export it', async () => {
  const { r, saved, onnx } = await inspectAll();
  assert.equal(r.code, 0, r.stderr);
  assert.equal(saved.format, 'saved-model');
  assert.equal(saved.opset, null);
  assert.deepEqual(saved.outputs.map((o) => o.name), ['logits']);
  assert.ok(saved.ops.some((o) => o.op === 'Const'));
  assert.equal(saved.engines.find((e) => e.engine === 'tfjs-cpu-graph-model')?.canRun, false);

  assert.equal(onnx.format, 'onnx');
  assert.equal(onnx.engines.find((e) => e.engine === 'tfjs-wasm-graph-model')?.canRun, true);
});
