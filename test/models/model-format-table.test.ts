/**
 * Issue 49: engines declare the format they open, and a model finds how to
 * write it in the format table (src/core/model-formats.ts), which the code
 * writing each format fills; nothing switches on a format's name. The toy
 * family (test/helpers/toy-family/) registers a format of its own with one
 * import, and a model then answers `modelFile('toy-json')` like any other.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CellSkip } from '../../src/core/errors.js';
import { aFormat, FormatRefused, formatLabel, modelFormat, registerModelFormat } from '../../src/core/model-formats.js';
import { readOnnxModel } from '../../src/core/onnx/onnx-decode.js';
import { packageRoot } from '../../src/core/package-info.js';
import { openOn } from '../../src/models/benchmark-model.js';
import { CharModel } from '../helpers/char-model.js';
import { useTestCache } from '../helpers/test-cache.js';
import { engines } from '../helpers/toy-family/toy-family.js';
import { TOY_FORMAT, type ToyGraph } from '../helpers/toy-family/toy-format.js';

const BERT = join(packageRoot(), 'test', 'data', 'hf', 'bert', 'onnx', 'model.onnx');

/** CharModel over a real ONNX graph, so a format's writer has one to read. */
class BertCharModel extends CharModel {
  override onnxPath(): string {
    return BERT;
  }
}

test("a family's own format is written from the ONNX graph on first use, once per model, and is the file its engine opens", async () => {
  useTestCache();
  const toy = engines[0];
  assert.ok(toy);
  assert.equal(toy.format, TOY_FORMAT);
  const model = new BertCharModel();
  const session = await openOn(toy, model);
  assert.deepEqual(session.describe().notes, ['opened toy-json written from model.onnx'], 'the engine read back a toy-json file written from the graph');
  await session.dispose();
  const file = await model.modelFile(TOY_FORMAT);
  assert.equal(await model.modelFile(TOY_FORMAT), file, 'resolved once per model');
  const graph = JSON.parse(readFileSync(file, 'utf8')) as ToyGraph;
  assert.deepEqual(graph.outputs.map((o) => o.name), (await readOnnxModel(BERT)).outputs.map((o) => o.name));
  assert.equal(await model.modelFile('onnx'), BERT, 'the ONNX graph is its own file');
});

test("a graph a format's writer refuses is a skipped cell with the writer's reason; a format nothing writes says the model must bring it", async () => {
  registerModelFormat({ id: 'refusing-test', label: 'refusing test file', fromOnnx: async () => Promise.reject(new FormatRefused('no mapping for op Foo (node foo_1)')) });
  await assert.rejects(new CharModel().modelFile('refusing-test'), (err: unknown) => err instanceof CellSkip && err.message === 'char-model cannot be exported as a refusing test file: no mapping for op Foo (node foo_1)');
  await assert.rejects(new CharModel().modelFile('gguf'), (err: unknown) => err instanceof CellSkip && err.message === 'char-model has no gguf file (a model brings one through nativeModelPath)');
});

test('a format is registered once, and each is named by its label with its article', () => {
  assert.throws(() => registerModelFormat({ id: TOY_FORMAT, label: 'another toy' }), /model format "toy-json" is registered twice/);
  assert.equal(modelFormat('onnx')?.fromOnnx, 'itself');
  assert.deepEqual(['onnx', 'graph-model', 'saved-model', TOY_FORMAT, 'gguf'].map(aFormat), ['an ONNX graph', 'a tfjs GraphModel', 'a TensorFlow SavedModel', 'a toy JSON graph', 'a gguf file']);
  assert.equal(formatLabel('saved-model'), 'TensorFlow SavedModel');
});
