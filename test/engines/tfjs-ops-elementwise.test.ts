import { test } from 'node:test';
import { attr } from '../../src/core/onnx/onnx-builder.js';
import { bool, checkOpCase, f32, i64, randomFloats, type OpCase } from '../helpers/tfjs-op-harness.js';

const x = randomFloats([2, 3, 4]);
const positive = randomFloats([2, 3, 4], 0.1, 3);
const CAST = { float32: 1, int64: 7, bool: 9 } as const;

const cases: OpCase[] = [
  { title: 'Add broadcasts a row', opType: 'Add', inputs: { a: x, b: randomFloats([4]) } },
  { title: 'Sub broadcasts a column', opType: 'Sub', inputs: { a: x, b: randomFloats([2, 3, 1]) } },
  { title: 'Mul', opType: 'Mul', inputs: { a: x, b: randomFloats([2, 3, 4]) } },
  { title: 'Div float', opType: 'Div', inputs: { a: x, b: positive } },
  { title: 'Div int64 truncates toward zero', opType: 'Div', inputs: { a: i64([4], [-7, 7, -8, 9]), b: i64([4], [2, -2, 3, 4]) }, outputs: ['int64'] },
  { title: 'Pow by 2', opType: 'Pow', inputs: { a: x }, initializers: { e: f32([], [2]) } },
  { title: 'Pow by 3', opType: 'Pow', inputs: { a: x }, initializers: { e: f32([], [3]) } },
  { title: 'Pow by a tensor', opType: 'Pow', inputs: { a: positive, e: randomFloats([4], -1, 2) } },
  { title: 'Equal int64', opType: 'Equal', inputs: { a: i64([4], [1, 2, 3, 4]), b: i64([4], [1, 0, 3, 0]) }, outputs: ['bool'] },
  { title: 'Less', opType: 'Less', inputs: { a: x, b: randomFloats([4]) }, outputs: ['bool'] },
  { title: 'Greater', opType: 'Greater', inputs: { a: x, b: randomFloats([4]) }, outputs: ['bool'] },
  { title: 'LessOrEqual', opType: 'LessOrEqual', opset: 16, inputs: { a: x, b: x }, outputs: ['bool'] },
  { title: 'And', opType: 'And', inputs: { a: bool([4], [true, true, false, false]), b: bool([4], [true, false, true, false]) }, outputs: ['bool'] },
  { title: 'Or', opType: 'Or', inputs: { a: bool([4], [true, true, false, false]), b: bool([4], [true, false, true, false]) }, outputs: ['bool'] },
  { title: 'Not', opType: 'Not', inputs: { a: bool([3], [true, false, true]) }, outputs: ['bool'] },
  { title: 'Where broadcasts', opType: 'Where', inputs: { c: bool([3, 1], [true, false, true]), a: randomFloats([3, 4]), b: randomFloats([4]) } },
  { title: 'Max of three', opType: 'Max', inputs: { a: x, b: randomFloats([4]), c: randomFloats([3, 1]) } },
  { title: 'Min of two', opType: 'Min', inputs: { a: x, b: randomFloats([2, 3, 4]) } },
  { title: 'Sum of three', opType: 'Sum', inputs: { a: x, b: x, c: randomFloats([4]) } },
  { title: 'Mod int (fmod=0)', opType: 'Mod', inputs: { a: i64([4], [-7, 7, -8, 9]), b: i64([4], [3, -3, 3, 4]) }, outputs: ['int64'] },
  { title: 'Mod float (fmod=1)', opType: 'Mod', inputs: { a: f32([3], [-7.5, 7.5, 5]), b: f32([3], [2, -2, 3]) }, attributes: { fmod: attr.int(1) } },
  ...(['Sqrt', 'Log'] as const).map((op): OpCase => ({ title: op, opType: op, inputs: { a: positive } })),
  ...(['Erf', 'Tanh', 'Relu', 'Neg', 'Exp', 'Abs', 'Sigmoid', 'Floor', 'Ceil', 'Sign', 'Sin', 'Cos', 'Softplus', 'Elu', 'Identity'] as const).map(
    (op): OpCase => ({ title: op, opType: op, inputs: { a: x } }),
  ),
  { title: 'Round halves to even', opType: 'Round', inputs: { a: f32([6], [0.5, 1.5, 2.5, -0.5, -1.5, 2.4]) } },
  { title: 'Reciprocal', opType: 'Reciprocal', inputs: { a: positive } },
  { title: 'LeakyRelu', opType: 'LeakyRelu', inputs: { a: x }, attributes: { alpha: attr.float(0.2) } },
  { title: 'Elu alpha 0.5', opType: 'Elu', inputs: { a: x }, attributes: { alpha: attr.float(0.5) } },
  { title: 'Gelu exact (opset 20)', opType: 'Gelu', opset: 20, inputs: { a: x } },
  { title: 'Gelu tanh (opset 20)', opType: 'Gelu', opset: 20, inputs: { a: x }, attributes: { approximate: attr.string('tanh') } },
  { title: 'Clip with input bounds', opType: 'Clip', opset: 13, inputs: { a: x }, initializers: { lo: f32([], [-0.5]), hi: f32([], [0.7]) } },
  { title: 'Clip with only max', opType: 'Clip', opset: 13, inputs: { a: x }, initializers: { hi: f32([], [0.7]) }, order: ['a', '', 'hi'] },
  { title: 'Clip attributes (opset 10)', opType: 'Clip', opset: 10, inputs: { a: x }, attributes: { min: attr.float(-1), max: attr.float(1) } },
  { title: 'Cast float to int64 truncates', opType: 'Cast', inputs: { a: f32([4], [-2.7, -0.2, 0.9, 3.99]) }, attributes: { to: attr.int(CAST.int64) }, outputs: ['int64'] },
  { title: 'Cast int64 to float', opType: 'Cast', inputs: { a: i64([3], [-5, 0, 123456]) }, attributes: { to: attr.int(CAST.float32) } },
  { title: 'Cast float to bool', opType: 'Cast', inputs: { a: f32([3], [0, -0.5, 2]) }, attributes: { to: attr.int(CAST.bool) }, outputs: ['bool'] },
  { title: 'Cast bool to float', opType: 'Cast', inputs: { a: bool([2], [true, false]) }, attributes: { to: attr.int(CAST.float32) } },
  { title: 'Cast of a host constant', opType: 'Cast', initializers: { a: i64([2], [3, -4]) }, attributes: { to: attr.int(CAST.float32) } },
  { title: 'Add of host constants', opType: 'Add', initializers: { a: i64([2], [3, -4]), b: i64([1], [10]) }, outputs: ['int64'] },
];

test('element-wise ops on tfjs-cpu and tfjs-wasm match onnxruntime-node', async (t) => {
  for (const c of cases) await t.test(c.title, () => checkOpCase(c));
});
