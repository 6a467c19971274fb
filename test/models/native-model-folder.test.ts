import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { createOnnxNodeEngine } from '../../engines/onnx/onnx-node-engine.js';
import { createNativeTfjsEngine } from '../../engines/tfjs/native-engine.js';
import { CellSkip } from '../../src/core/errors.js';
import { TextClassification } from '../../src/models/text-classification.js';
import { HF_FIXTURES_DIR, readHfFixture, maxDiffBetween } from '../helpers/hf-fixtures.js';
import { exported } from '../helpers/native-exports.js';

const fixture = readHfFixture('bert');
const sentences = fixture.sentences as readonly string[];

test('a folder with only a GraphModel is a model: inputs from its signature (int32), run by the GraphModel engines', async () => {
  const { dir } = await exported(fixture.onnxPath, 'graph-model');
  const model = await new TextClassification(dir, { name: 'bert-gm' }).init();
  assert.deepEqual(model.nativeFormats, ['graph-model']);
  assert.deepEqual(model.inputs.map((i) => `${i.name}:${i.dtype}`), ['input_ids:int32', 'attention_mask:int32', 'token_type_ids:int32']);
  assert.ok((await model.info()).sizeBytes > 200_000, 'model.json and its shards');
  const feeds = model.tokenizeTexts(sentences);
  const session = await model.exportToTfjs('cpu', { engine: createNativeTfjsEngine('cpu', 'graph-model') });
  try {
    const reference = await new TextClassification(join(HF_FIXTURES_DIR, 'bert')).init();
    const onnx = await reference.exportToOnnx('cpu', { engine: createOnnxNodeEngine('cpu') });
    const diff = maxDiffBetween(await onnx.run(reference.tokenizeTexts(sentences)), await session.run(feeds));
    await onnx.dispose();
    assert.ok(diff <= 1e-4, `max |diff| ${diff}`);
  } finally {
    await session.dispose();
  }
});

test('the engines of other formats skip such a folder, saying what it holds and what runs it', async () => {
  const { dir } = await exported(fixture.onnxPath, 'graph-model');
  const model = await new TextClassification(dir, { name: 'bert-gm' }).init();
  await assert.rejects(model.exportToOnnx('cpu', { engine: createOnnxNodeEngine('cpu') }), (err: unknown) => {
    assert.ok(err instanceof CellSkip);
    assert.match(err.message, /^bert-gm has no ONNX graph: .* holds only a tfjs GraphModel, which tfjs-<backend>-graph-model run/);
    return true;
  });
  await assert.rejects(model.modelFile('saved-model'), /bert-gm has no TensorFlow SavedModel and no ONNX graph to export one from/);
});

test('a folder with only a SavedModel takes its inputs from the serving_default signature', async () => {
  const { dir } = await exported(fixture.onnxPath, 'saved-model');
  const model = await new TextClassification(dir).init();
  assert.deepEqual(model.nativeFormats, ['saved-model']);
  assert.deepEqual(model.inputs.map((i) => i.dtype), ['int32', 'int32', 'int32']);
  assert.deepEqual(model.inputs.map((i) => i.name).sort(), ['attention_mask', 'input_ids', 'token_type_ids']);
  assert.equal(await model.modelFile('saved-model'), join(dir, 'saved_model.pb'));
});
