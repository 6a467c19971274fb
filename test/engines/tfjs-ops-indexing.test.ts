import { test } from 'node:test';
import { attr } from '../../src/core/onnx/onnx-builder.js';
import { bool, checkOpCase, f32, i64, randomFloats, type OpCase } from '../helpers/tfjs-op-harness.js';

const x = randomFloats([2, 3, 4]);
const mask = i64([2, 5], [1, 1, 1, 0, 0, 1, 1, 1, 1, 1]);

/** Ops the Hugging Face exports brought in: RoBERTa/XLM-R/MPNet position ids (CumSum, GatherElements), SDPA masks (IsNaN), causal masks (Trilu), cache updates (ScatterND). */
const cases: OpCase[] = [
  { title: 'CumSum of a fed int64 mask along axis 1 (RoBERTa position ids)', opType: 'CumSum', inputs: { a: mask }, initializers: { axis: i64([], [1]) }, outputs: ['int64'] },
  { title: 'CumSum float, exclusive and reverse, axis -1', opType: 'CumSum', inputs: { a: x }, initializers: { axis: i64([], [-1]) }, attributes: { exclusive: attr.int(1), reverse: attr.int(1) } },
  { title: 'CumSum float along axis 0', opType: 'CumSum', inputs: { a: x }, initializers: { axis: i64([], [0]) } },
  { title: 'CumSum of a host constant, reverse', opType: 'CumSum', initializers: { a: i64([2, 3], [1, 2, 3, 4, 5, 6]), axis: i64([], [1]) }, attributes: { reverse: attr.int(1) }, outputs: ['int64'] },
  { title: 'CumSum of a host constant, exclusive, axis 0', opType: 'CumSum', initializers: { a: i64([2, 3], [1, 2, 3, 4, 5, 6]), axis: i64([], [0]) }, attributes: { exclusive: attr.int(1) }, outputs: ['int64'] },
  { title: 'GatherElements axis 1 with fed indices', opType: 'GatherElements', inputs: { a: randomFloats([3, 4]), i: i64([3, 2], [0, 3, -1, 2, 1, 1]) }, attributes: { axis: attr.int(1) } },
  { title: 'GatherElements axis 0 with constant indices', opType: 'GatherElements', inputs: { a: randomFloats([3, 4]) }, initializers: { i: i64([2, 4], [0, 1, 2, 0, 2, 2, -3, 1]) }, attributes: { axis: attr.int(0) } },
  { title: 'GatherElements on 3-D, axis -1', opType: 'GatherElements', inputs: { a: x, i: i64([2, 3, 1], [3, 2, 1, 0, 1, 2]) }, attributes: { axis: attr.int(-1) } },
  { title: 'GatherElements of a host constant', opType: 'GatherElements', initializers: { a: i64([2, 3], [10, 11, 12, 13, 14, 15]), i: i64([2, 2], [2, 0, 1, 1]) }, attributes: { axis: attr.int(1) }, outputs: ['int64'] },
  { title: 'IsNaN on floats', opType: 'IsNaN', inputs: { a: f32([5], [0, NaN, -1, Infinity, NaN]) }, outputs: ['bool'] },
  { title: 'IsInf both signs', opType: 'IsInf', inputs: { a: f32([4], [0, -Infinity, Infinity, NaN]) }, outputs: ['bool'] },
  { title: 'IsInf positive only', opType: 'IsInf', inputs: { a: f32([4], [0, -Infinity, Infinity, NaN]) }, attributes: { detect_negative: attr.int(0) }, outputs: ['bool'] },
  { title: 'Trilu upper (default)', opType: 'Trilu', inputs: { a: randomFloats([2, 3, 4]) } },
  { title: 'Trilu lower with k = -1', opType: 'Trilu', inputs: { a: randomFloats([3, 4]) }, initializers: { k: i64([], [-1]) }, attributes: { upper: attr.int(0) } },
  { title: 'Trilu upper with k = 1 on a host constant', opType: 'Trilu', initializers: { a: i64([3, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9]), k: i64([], [1]) }, outputs: ['int64'] },
  { title: 'ScatterND replaces rows', opType: 'ScatterND', inputs: { d: randomFloats([4, 3]), u: randomFloats([2, 3]) }, initializers: { i: i64([2, 1], [3, 1]) }, order: ['d', 'i', 'u'] },
  { title: 'ScatterND elements with reduction add (opset 16)', opType: 'ScatterND', opset: 16, inputs: { d: randomFloats([2, 3]), u: f32([2], [10, 20]) }, initializers: { i: i64([2, 2], [0, 2, 1, 0]) }, order: ['d', 'i', 'u'], attributes: { reduction: attr.string('add') } },
  { title: 'Where with a bool mask from IsNaN input', opType: 'Where', inputs: { c: bool([3], [true, false, true]), a: f32([3], [1, 2, 3]), b: f32([3], [4, 5, 6]) } },
];

test('indexing ops (CumSum, GatherElements, IsNaN, IsInf, Trilu, ScatterND) on tfjs-cpu and tfjs-wasm match onnxruntime-node', async (t) => {
  for (const c of cases) await t.test(c.title, () => checkOpCase(c));
});
