import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { readOnnxModel } from '../../src/core/onnx/onnx-decode.js';
import { decodeSavedModel } from '../../src/models/tf-export/tf-proto.js';
import { GRAPH_DEF_PRODUCER } from '../../src/models/tf-export/saved-model-writer.js';
import { loadHfFixture } from '../helpers/hf-fixtures.js';
import { exported } from '../helpers/native-exports.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

const fixture = loadHfFixture('minilm');
const saved = await exported(fixture.onnxPath, 'saved-model');
const message = decodeSavedModel(new Uint8Array(readFileSync(saved.file)));

test('saved_model.pb holds one MetaGraphDef tagged serve, with a serving_default signature naming the inputs and the logits', () => {
  assert.equal(message.saved_model_schema_version, 1);
  assert.equal(message.meta_graphs.length, 1);
  const meta = message.meta_graphs[0];
  assert.deepEqual(meta?.meta_info_def.tags, ['serve']);
  assert.equal(meta?.graph_def.versions.producer, GRAPH_DEF_PRODUCER);
  const sig = meta?.signature_def['serving_default'];
  assert.equal(sig?.method_name, 'tensorflow/serving/predict');
  assert.deepEqual(Object.keys(sig?.inputs ?? {}).sort(), ['attention_mask', 'input_ids', 'token_type_ids']);
  assert.equal(sig?.inputs['input_ids']?.name, 'input_ids:0');
  assert.deepEqual(sig?.inputs['input_ids']?.tensor_shape.dim?.map((d) => Number(d.size)), [-1, -1]);
  assert.deepEqual(Object.keys(sig?.outputs ?? {}), ['logits']);
  assert.equal(sig?.outputs['logits']?.dtype, 1, 'DT_FLOAT');
});

test('every weight is a Const node with its bytes, int64 is kept inside the graph, and no MatMul carries a transpose flag', async () => {
  const nodes = message.meta_graphs[0]?.graph_def.node ?? [];
  const consts = nodes.filter((n) => n.op === 'Const');
  // Every 2-D weight of the ONNX graph is a Const of the same size (as written, or transposed for MatMul).
  const sizes = consts.map((n) => n.attr['value']?.tensor?.tensor_content?.length ?? 0).sort((a, b) => a - b);
  const model = await readOnnxModel(fixture.onnxPath);
  for (const t of model.initializers.values()) {
    if (t.dims.length !== 2 || t.dtype !== 'float32') continue;
    const i = sizes.indexOf(t.data.length * 4);
    assert.ok(i >= 0, `weight ${t.name} (${t.data.length * 4} bytes) has no Const of its size`);
    sizes.splice(i, 1);
  }
  assert.ok(nodes.some((n) => Object.values(n.attr).some((a) => a.type === 9)), 'int64 (DT_INT64) tensors inside the graph');
  // TF 2.21's oneDNN MatMul with transpose_b fused with BiasAdd is wrong for widths such as 48 (minilm's): weights are pre-transposed.
  for (const n of nodes.filter((m) => m.op === 'MatMul')) {
    assert.notEqual(n.attr['transpose_a']?.b, true, `${n.name} transpose_a`);
    assert.notEqual(n.attr['transpose_b']?.b, true, `${n.name} transpose_b`);
  }
});

test("tfjs-node's own SavedModel reader lists the serve tag and the serving_default signature", { skip: await tfjsNodeSkip() }, async () => {
  const tf = createRequire(import.meta.url)('@tensorflow/tfjs-node') as { node: { getMetaGraphsFromSavedModel(path: string): Promise<{ tags: string[]; signatureDefs: Record<string, { inputs: Record<string, { dtype: string }>; outputs: Record<string, unknown> }> }[]> } };
  const metas = await tf.node.getMetaGraphsFromSavedModel(saved.dir);
  assert.deepEqual(metas.map((m) => m.tags), [['serve']]);
  const sig = metas[0]?.signatureDefs['serving_default'];
  assert.equal(sig?.inputs['input_ids']?.dtype, 'int32');
  assert.deepEqual(Object.keys(sig?.outputs ?? {}), ['logits']);
});
