import { test } from 'node:test';
import { attr } from '../../src/core/onnx/onnx-builder.js';
import { checkOpCase, f32, i64, randomFloats, type OpCase } from '../helpers/tfjs-op-harness.js';

const x = randomFloats([2, 3, 4]);
const INT64_MAX = 9223372036854775807n;

const cases: OpCase[] = [
  { title: 'Reshape with 0 and -1', opType: 'Reshape', inputs: { a: x }, initializers: { s: i64([2], [0, -1]) } },
  { title: 'Reshape to 4-D', opType: 'Reshape', inputs: { a: x }, initializers: { s: i64([4], [2, 3, 2, 2]) } },
  { title: 'Reshape of a host constant', opType: 'Reshape', initializers: { a: i64([6], [1, 2, 3, 4, 5, 6]), s: i64([2], [-1, 2]) }, outputs: ['int64'] },
  { title: 'Flatten axis 2', opType: 'Flatten', inputs: { a: x }, attributes: { axis: attr.int(2) } },
  { title: 'Transpose with perm', opType: 'Transpose', inputs: { a: x }, attributes: { perm: attr.ints([2, 0, 1]) } },
  { title: 'Transpose default reverses', opType: 'Transpose', inputs: { a: x } },
  { title: 'Transpose of a host constant', opType: 'Transpose', initializers: { a: i64([2, 3], [1, 2, 3, 4, 5, 6]) }, outputs: ['int64'] },
  { title: 'Unsqueeze attribute axes (opset 11)', opType: 'Unsqueeze', opset: 11, inputs: { a: x }, attributes: { axes: attr.ints([0, 4]) } },
  { title: 'Unsqueeze input axes (opset 13)', opType: 'Unsqueeze', opset: 13, inputs: { a: x }, initializers: { axes: i64([2], [-1, 1]) } },
  { title: 'Squeeze attribute axes (opset 11)', opType: 'Squeeze', opset: 11, inputs: { a: randomFloats([1, 3, 1, 2]) }, attributes: { axes: attr.ints([2]) } },
  { title: 'Squeeze all ones (opset 13)', opType: 'Squeeze', opset: 13, inputs: { a: randomFloats([1, 3, 1, 2]) } },
  { title: 'Shape', opType: 'Shape', inputs: { a: x }, outputs: ['int64'] },
  { title: 'Shape start/end (opset 15)', opType: 'Shape', opset: 15, inputs: { a: x }, attributes: { start: attr.int(1), end: attr.int(-1) }, outputs: ['int64'] },
  { title: 'Size', opType: 'Size', inputs: { a: x }, outputs: ['int64'] },
  { title: 'Concat axis 1', opType: 'Concat', inputs: { a: x, b: randomFloats([2, 2, 4]) }, attributes: { axis: attr.int(1) } },
  { title: 'Concat of int64 host constants', opType: 'Concat', initializers: { a: i64([2], [1, 2]), b: i64([1], [-1]) }, attributes: { axis: attr.int(0) }, outputs: ['int64'] },
  { title: 'Slice with axes and steps', opType: 'Slice', inputs: { a: x }, initializers: { s: i64([2], [1, 0]), e: i64([2], [INT64_MAX, 3]), ax: i64([2], [2, 1]), st: i64([2], [2, 1]) } },
  { title: 'Slice with a negative step', opType: 'Slice', inputs: { a: x }, initializers: { s: i64([1], [-1]), e: i64([1], [-INT64_MAX]), ax: i64([1], [2]), st: i64([1], [-1]) } },
  { title: 'Slice negative start', opType: 'Slice', inputs: { a: x }, initializers: { s: i64([1], [-2]), e: i64([1], [100]) } },
  { title: 'Slice attributes (opset 9)', opType: 'Slice', opset: 9, inputs: { a: x }, attributes: { starts: attr.ints([0, 1]), ends: attr.ints([1, 3]), axes: attr.ints([0, 2]) } },
  { title: 'Slice of a host constant', opType: 'Slice', initializers: { a: i64([5], [10, 11, 12, 13, 14]), s: i64([1], [1]), e: i64([1], [INT64_MAX]) }, outputs: ['int64'] },
  { title: 'Gather axis 1 with negative constant indices', opType: 'Gather', inputs: { a: x }, initializers: { i: i64([2], [-1, 0]) }, attributes: { axis: attr.int(1) } },
  { title: 'Gather with fed negative indices', opType: 'Gather', inputs: { a: randomFloats([5, 3]), i: i64([2, 2], [0, -1, 4, -5]) } },
  { title: 'Gather with fed indices (embedding lookup)', opType: 'Gather', inputs: { a: randomFloats([7, 4]), i: i64([2, 3], [0, 6, 3, 3, 1, 2]) } },
  { title: 'Gather rows of an initializer table with fed ids', opType: 'Gather', order: ['t', 'i'], inputs: { i: i64([2, 3], [0, 6, -1, 3, 1, 2]) }, initializers: { t: randomFloats([7, 4]) } },
  { title: 'Gather with a scalar index', opType: 'Gather', inputs: { a: x }, initializers: { i: i64([], [1]) }, attributes: { axis: attr.int(2) } },
  { title: 'Gather on a host constant', opType: 'Gather', initializers: { a: i64([2, 3], [1, 2, 3, 4, 5, 6]), i: i64([], [-1]) }, attributes: { axis: attr.int(1) }, outputs: ['int64'] },
  { title: 'Expand bidirectionally', opType: 'Expand', inputs: { a: randomFloats([3, 1]) }, initializers: { s: i64([3], [2, 1, 4]) } },
  { title: 'Expand a host constant', opType: 'Expand', initializers: { a: i64([1], [7]), s: i64([2], [2, 3]) }, outputs: ['int64'] },
  { title: 'ConstantOfShape float', opType: 'ConstantOfShape', initializers: { s: i64([2], [2, 3]) }, attributes: { value: attr.tensor(f32([1], [1.5])) } },
  { title: 'ConstantOfShape int64', opType: 'ConstantOfShape', initializers: { s: i64([1], [3]) }, attributes: { value: attr.tensor(i64([1], [4])) }, outputs: ['int64'] },
  { title: 'ConstantOfShape default zeros', opType: 'ConstantOfShape', initializers: { s: i64([2], [100, 50]) } },
  { title: 'Range int64', opType: 'Range', initializers: { a: i64([], [2]), b: i64([], [11]), c: i64([], [3]) }, outputs: ['int64'] },
  { title: 'Range float', opType: 'Range', initializers: { a: f32([], [0.5]), b: f32([], [-2]), c: f32([], [-0.75]) } },
  { title: 'Range from fed scalars', opType: 'Range', inputs: { a: i64([], [0]), b: i64([], [5000]), c: i64([], [1]) }, outputs: ['int64'] },
  { title: 'Split by sizes (opset 13)', opType: 'Split', opset: 13, inputs: { a: x }, initializers: { s: i64([2], [1, 3]) }, attributes: { axis: attr.int(2) }, outputs: ['float32', 'float32'] },
  { title: 'Split equally (opset 13)', opType: 'Split', opset: 13, inputs: { a: x }, attributes: { axis: attr.int(1) }, outputs: ['float32', 'float32', 'float32'] },
  { title: 'Split attribute (opset 11)', opType: 'Split', opset: 11, inputs: { a: x }, attributes: { axis: attr.int(-1), split: attr.ints([3, 1]) }, outputs: ['float32', 'float32'] },
  { title: 'Tile', opType: 'Tile', inputs: { a: randomFloats([2, 3]) }, initializers: { r: i64([2], [2, 1]) } },
  { title: 'Constant (tensor value)', opType: 'Constant', attributes: { value: attr.tensor(f32([2, 2], [1, 2, 3, 4])) } },
  { title: 'Constant value_ints (opset 13)', opType: 'Constant', opset: 13, attributes: { value_ints: attr.ints([3, -1]) }, outputs: ['int64'] },
  { title: 'Constant value_float (opset 13)', opType: 'Constant', opset: 13, attributes: { value_float: attr.float(0.25) } },
];

test('tensor-shaping ops on tfjs-cpu and tfjs-wasm match onnxruntime-node', async (t) => {
  for (const c of cases) await t.test(c.title, () => checkOpCase(c));
});
