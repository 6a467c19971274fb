import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { REVIEW_TEXTS } from '../helpers/default-model-fixtures.js';
import { maxDiffBetween } from '../helpers/hf-fixtures.js';
import { nativeOutputs, onnxCpuOutputs } from '../helpers/native-exports.js';
import { bertBatch, bertModelDir } from '../helpers/tfjs-bert.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

const TOLERANCE = 1e-4;
const dir = await bertModelDir();
const onnxPath = join(dir, 'onnx', 'model.onnx');
const batch = await bertBatch(dir, REVIEW_TEXTS.slice(0, 8));
const reference = await onnxCpuOutputs(onnxPath, batch);

for (const backend of ['cpu', 'wasm'] as const) {
  test(`the embedded default model's GraphModel on tfjs-${backend} (tfjs-converter) matches onnx-cpu within ${TOLERANCE}`, async () => {
    const { outputs } = await nativeOutputs(onnxPath, backend, 'graph-model', batch);
    const diff = maxDiffBetween(reference, outputs);
    assert.ok(diff <= TOLERANCE, `max |diff| from onnx-cpu is ${diff}`);
  });
}

for (const executor of ['saved-model', 'graph-model'] as const) {
  test(`the embedded default model's ${executor === 'saved-model' ? 'SavedModel in a TensorFlow session' : 'GraphModel on tfjs-converter'} on tfjs-node matches onnx-cpu within ${TOLERANCE}`, { skip: await tfjsNodeSkip() }, async () => {
    const { outputs } = await nativeOutputs(onnxPath, 'node', executor, batch);
    const diff = maxDiffBetween(reference, outputs);
    assert.ok(diff <= TOLERANCE, `max |diff| from onnx-cpu is ${diff}`);
  });
}
