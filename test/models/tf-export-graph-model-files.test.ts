import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createNativeTfjsEngine } from '../../engines/tfjs/native-engine.js';
import { readOnnxModel } from '../../src/core/onnx/onnx-decode.js';
import { graphModelFiles, SHARD_BYTES } from '../../src/models/tf-export/graph-model-writer.js';
import { convertOnnxToTf } from '../../src/models/tf-export/onnx-to-tf.js';
import { readHfFixture, maxDiffBetween } from '../helpers/hf-fixtures.js';
import { onnxCpuOutputs } from '../helpers/native-exports.js';
import { testOutputDir } from '../helpers/test-cache.js';

interface JsonNode { name: string; op: string; attr: Record<string, { tensor?: Record<string, unknown>; type?: string }> }
interface ModelJson {
  format: string;
  modelTopology: { node: JsonNode[] };
  signature: Record<'inputs' | 'outputs', Record<string, { name: string; dtype: string; tensorShape: { dim: { size: string }[] } }>>;
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string }[] }[];
}

const fixture = readHfFixture('bert');
const { graph } = await convertOnnxToTf(await readOnnxModel(fixture.onnxPath), 'graph-model', 'test');

test('model.json is a graph-model whose Const nodes carry no values: every one is in weightsManifest, in shard order', () => {
  const { modelJson } = graphModelFiles(graph, 'test');
  const json = modelJson as unknown as ModelJson;
  assert.equal(json.format, 'graph-model');
  const consts = json.modelTopology.node.filter((n) => n.op === 'Const');
  assert.ok(consts.length > 0);
  for (const n of consts) {
    assert.deepEqual(Object.keys(n.attr['value']?.tensor ?? {}).sort(), ['dtype', 'tensorShape'], `${n.name}: dtype and shape only`);
  }
  const manifest = json.weightsManifest.flatMap((g) => g.weights);
  assert.deepEqual(manifest.map((w) => w.name), consts.map((n) => n.name));
  assert.ok(manifest.every((w) => ['float32', 'int32', 'bool'].includes(w.dtype)), 'tfjs dtypes only (no int64 in a GraphModel)');
  assert.ok(json.modelTopology.node.every((n) => Object.values(n.attr).every((a) => a.type !== 'DT_INT64')), 'no int64 anywhere in a GraphModel');
  assert.equal(SHARD_BYTES, 4 * 1024 * 1024);
});

test('the signature names the inputs and the logits, with batch and sequence dynamic (-1)', () => {
  const json = graphModelFiles(graph, 'test').modelJson as unknown as ModelJson;
  assert.deepEqual(Object.keys(json.signature.inputs).sort(), ['attention_mask', 'input_ids', 'token_type_ids']);
  assert.deepEqual(json.signature.inputs['input_ids']?.tensorShape.dim.map((d) => d.size), ['-1', '-1']);
  assert.equal(json.signature.inputs['input_ids']?.dtype, 'DT_INT32');
  assert.deepEqual(Object.keys(json.signature.outputs), ['logits']);
  assert.deepEqual(json.signature.outputs['logits']?.tensorShape.dim.map((d) => d.size), ['-1', '2']);
});

test('weights cut into shards no larger than the shard size load across shard boundaries and give onnx-cpu\'s outputs', async () => {
  const shardBytes = 64 * 1024;
  const { modelJson, shards } = graphModelFiles(graph, 'test', shardBytes);
  assert.ok(shards.size >= 3, `${shards.size} shards`);
  for (const [name, bytes] of shards) assert.ok(bytes.length <= shardBytes, `${name} is ${bytes.length} bytes`);
  const dir = testOutputDir('graph-model-shards');
  mkdirSync(dir, { recursive: true });
  for (const [name, bytes] of shards) writeFileSync(join(dir, name), bytes);
  writeFileSync(join(dir, 'model.json'), JSON.stringify(modelJson));
  const session = await createNativeTfjsEngine('cpu', 'graph-model').open(join(dir, 'model.json'), { threads: null, precision: 'fp32' });
  try {
    const diff = maxDiffBetween(await onnxCpuOutputs(fixture.onnxPath, fixture.feeds), await session.run(fixture.feeds));
    assert.ok(diff <= 1e-4, `max |diff| ${diff}`);
  } finally {
    await session.dispose();
  }
});
