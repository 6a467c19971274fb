import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { OnnxModelBuilder } from '../../../src/core/onnx/onnx-builder.js';
import { renderInspection } from '../../../src/cli/inspect-command.js';
import type { ModelInspection } from '../../../src/models/inspect-model.js';
import { runCli, type CliResult } from '../../helpers/cli.js';
import { HF_FIXTURES_DIR } from '../../helpers/hf-fixtures.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** A graph with an op (Hardmax) the tfjs translator and the TF exporter lack, which ONNX Runtime runs. */
function hardmaxModel(): string {
  const dir = testOutputDir('inspect-unsupported');
  const g = new OnnxModelBuilder({ opset: 14 });
  const x = g.addInput('x', 'float32', ['batch', 4]);
  g.addNode({ opType: 'Hardmax', inputs: [g.op('Relu', [x])], outputs: ['y'], name: 'hard_max_1' });
  g.addOutput('y', 'float32', ['batch', 4]);
  writeFileSync(join(dir, 'model.onnx'), g.encode());
  return join(dir, 'model.onnx');
}

let shared: Promise<{ r: CliResult; reports: [ModelInspection, ModelInspection] }> | undefined;
/**
 * One `inspect --json` of both models for both tests (a JSON array in --model
 * order): every inspect probes every engine (Chromium, a libtensorflow child)
 * first, ~9 CPU-s. The text the CLI prints is renderInspection of the same report.
 */
function inspectBoth(): Promise<{ r: CliResult; reports: [ModelInspection, ModelInspection] }> {
  shared ??= runCli(['inspect', '--model', join(HF_FIXTURES_DIR, 'roberta'), '--model', hardmaxModel(), '--json']).then((r) => {
    assert.equal(r.code, 0, r.stderr);
    return { r, reports: JSON.parse(r.stdout) as [ModelInspection, ModelInspection] };
  });
  return shared;
}

test('inspect lists the ops with counts, opset, inputs and outputs, and that every available engine can run a Hub export', async () => {
  const { r, reports } = await inspectBoth();
  assert.equal(r.code, 0, r.stderr);
  const text = renderInspection(reports[0]);
  assert.match(text, /opset {4}13 /);
  assert.match(text, /input_ids int64 \[batch, sequence\]/);
  assert.match(text, /logits float32 \[batch, 2\]/);
  assert.match(text, /CumSum ×1/);
  assert.match(text, /MatMul ×\d+/);
  assert.match(text, /\n {2}tfjs-wasm +yes\n/);
  assert.match(text, /\n {2}onnx-cpu +yes\n/);
});

test('inspect names the ops the tfjs translator lacks, per tfjs engine, while ONNX Runtime can still run the model', async () => {
  const { r, reports } = await inspectBoth();
  assert.equal(r.code, 0, r.stderr);
  const report = reports[1];
  assert.deepEqual(report.ops, [{ op: 'Hardmax', count: 1 }, { op: 'Relu', count: 1 }]);
  const tfjsCpu = report.engines.find((e) => e.engine === 'tfjs-cpu');
  assert.equal(tfjsCpu?.canRun, false);
  assert.equal(tfjsCpu?.reason, 'unsupported ONNX op Hardmax (node hard_max_1)');
  assert.deepEqual(tfjsCpu?.unsupportedOps, ['Hardmax ×1']);
  assert.equal(report.engines.find((e) => e.engine === 'onnx-cpu')?.canRun, true);
  // The GraphModel and SavedModel engines run an export of the graph: the exporter's refusal is their reason.
  const graphModel = report.engines.find((e) => e.engine === 'tfjs-cpu-graph-model');
  assert.equal(graphModel?.canRun, false);
  assert.equal(graphModel?.reason, 'cannot be exported as a tfjs GraphModel: no TensorFlow mapping for ONNX op Hardmax (node hard_max_1)');
});
