import assert from 'node:assert/strict';
import { test } from 'node:test';
import onnxProto from 'onnx-proto';
import { listOps, parseOnnxModel } from '../../src/core/onnx/onnx-decode.js';

const { onnx } = onnxProto;

test('parseOnnxModel decodes inputs with symbolic dims, typed-field and raw initializers, attributes and opset; listOps counts ops', () => {
  const T = onnx.TensorProto.DataType;
  const A = onnx.AttributeProto.AttributeType;
  const raw = new Uint8Array(new Float32Array([1.5, -2]).buffer);
  const bytes = onnx.ModelProto.encode({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }, { domain: 'com.microsoft', version: 1 }],
    producerName: 'test',
    graph: {
      name: 'g',
      input: [
        { name: 'ids', type: { tensorType: { elemType: T.INT64, shape: { dim: [{ dimParam: 'batch' }, { dimValue: 7 }, {}] } } } },
        // Old exporters list weights as inputs too; they must not be reported as graph inputs.
        { name: 'w', type: { tensorType: { elemType: T.FLOAT, shape: { dim: [{ dimValue: 2 }] } } } },
      ],
      output: [{ name: 'y', type: { tensorType: { elemType: T.FLOAT } } }],
      initializer: [
        { name: 'w', dims: [2], dataType: T.FLOAT, rawData: raw },
        { name: 'f', dims: [3], dataType: T.FLOAT, floatData: [1, 2, 3] },
        { name: 'big', dims: [2], dataType: T.INT64, int64Data: [2 ** 62, -4] },
        { name: 'b', dims: [2], dataType: T.BOOL, int32Data: [1, 0] },
      ],
      node: [
        { opType: 'Add', input: ['w', 'f'], output: ['a'] },
        { opType: 'Add', input: ['a', 'a'], output: ['b2'], name: 'second' },
        { opType: 'Softmax', input: ['b2'], output: ['y'], attribute: [{ name: 'axis', type: A.INT, i: -1 }, { name: 'eps', type: A.FLOAT, f: 0.5 }, { name: 'mode', type: A.STRING, s: new TextEncoder().encode('x') }, { name: 'axes', type: A.INTS, ints: [0, 2] }] },
      ],
    },
  }).finish();
  const m = parseOnnxModel(bytes);
  assert.equal(m.opset, 13);
  assert.equal(m.irVersion, 7);
  assert.deepEqual(m.inputs, [{ name: 'ids', dtype: 'int64', dims: ['batch', 7, null] }]);
  assert.deepEqual(m.outputs, [{ name: 'y', dtype: 'float32', dims: null }]);
  assert.deepEqual([...(m.initializers.get('w')?.data as Float32Array)], [1.5, -2]);
  assert.deepEqual([...(m.initializers.get('f')?.data as Float32Array)], [1, 2, 3]);
  assert.deepEqual([...(m.initializers.get('big')?.data as BigInt64Array)], [4611686018427387904n, -4n]);
  assert.deepEqual([...(m.initializers.get('b')?.data as Uint8Array)], [1, 0]);
  assert.equal(m.nodes[0]?.name, 'Add_0', 'unnamed nodes get a name errors can cite');
  assert.equal(m.nodes[1]?.name, 'second');
  const attrs = m.nodes[2]?.attributes;
  assert.deepEqual(attrs?.get('axis'), { type: 'int', value: -1 });
  assert.deepEqual(attrs?.get('eps'), { type: 'float', value: 0.5 });
  assert.deepEqual(attrs?.get('mode'), { type: 'string', value: 'x' });
  assert.deepEqual(attrs?.get('axes'), { type: 'ints', value: [0, 2] });
  assert.deepEqual(listOps(m), [
    { opType: 'Add', domain: '', count: 2 },
    { opType: 'Softmax', domain: '', count: 1 },
  ]);
});
