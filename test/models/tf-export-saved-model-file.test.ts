import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { readOnnxModel } from '../../src/core/onnx/onnx-decode.js';
import { decodeSavedModel } from '../../src/models/tf-export/tf-proto.js';
import { GRAPH_DEF_PRODUCER, VARIABLE_MIN_BYTES } from '../../src/models/tf-export/saved-model-writer.js';
import { readHfFixture } from '../helpers/hf-fixtures.js';
import { exported } from '../helpers/native-exports.js';
import { readBundle } from '../helpers/tensor-bundle-read.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

const fixture = readHfFixture('minilm');
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

test('every weight is a variable restored from the checkpoint in variables/ (its bytes there, not in the graph), int64 is kept inside the graph, and no MatMul carries a transpose flag', async () => {
  const meta = message.meta_graphs[0];
  const nodes = meta?.graph_def.node ?? [];
  const bundle = readBundle(saved.dir);
  assert.equal(bundle.header.num_shards, 1);
  assert.deepEqual([...bundle.keys], [...bundle.keys].sort(), 'checkpoint keys in byte order, as TensorFlow looks them up');
  // Every 2-D weight of the ONNX graph of at least VARIABLE_MIN_BYTES is a checkpoint tensor of the same size (as written, or
  // transposed for MatMul); a smaller one is a Const of its size.
  const sizes = [...bundle.entries.values()].map((e) => e.size).sort((a, b) => a - b);
  const constSizes = nodes.filter((n) => n.op === 'Const').map((n) => n.attr['value']?.tensor?.tensor_content?.length ?? 0);
  const largest = Math.max(...constSizes);
  const model = await readOnnxModel(fixture.onnxPath);
  let lifted = 0;
  for (const t of model.initializers.values()) {
    if (t.dims.length !== 2 || t.dtype !== 'float32') continue;
    const bytes = t.data.length * 4;
    const pool = bytes >= VARIABLE_MIN_BYTES ? sizes : constSizes;
    const i = pool.indexOf(bytes);
    assert.ok(i >= 0, `weight ${t.name} (${bytes} bytes) has no ${bytes >= VARIABLE_MIN_BYTES ? 'checkpoint tensor' : 'Const'} of its size`);
    pool.splice(i, 1);
    if (bytes >= VARIABLE_MIN_BYTES) lifted++;
  }
  assert.ok(lifted > 0, 'the fixture has weights large enough to be variables');
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const assigned = new Set(nodes.filter((n) => n.op === 'AssignVariableOp').map((n) => n.input[0]));
  for (const key of bundle.keys) {
    const read = byName.get(key);
    assert.equal(read?.op, 'ReadVariableOp', `${key} is read from its variable`);
    const handle = byName.get(read?.input[0] ?? '');
    assert.equal(handle?.op, 'VarHandleOp', `${key} reads a VarHandleOp`);
    assert.ok(assigned.has(handle?.name), `${key}'s variable is assigned by the restore op`);
  }
  assert.ok(largest < VARIABLE_MIN_BYTES, `no tensor of ${VARIABLE_MIN_BYTES} bytes or more left as a Const (largest Const ${largest} bytes)`);
  // The loader feeds the checkpoint path to the SaverDef's filename tensor and runs its restore op.
  const saver = meta?.saver_def;
  assert.ok(saver && byName.get(saver.restore_op_name)?.op === 'NoOp', JSON.stringify(saver));
  assert.equal(byName.get(saver.filename_tensor_name.replace(/:0$/, ''))?.op, 'Const');
  assert.ok(byName.has(saver.save_tensor_name.replace(/:0$/, '')));
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
