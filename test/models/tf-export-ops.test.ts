/**
 * The lowerings the HF fixtures do not reach (or reach in one form only),
 * each in a one-op graph: exported as a GraphModel (run by tfjs-converter on
 * tfjs-cpu) and a SavedModel (a TensorFlow session, where tfjs-node is
 * available), both compared with onnx-cpu on the same feeds.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { OnnxModelBuilder, attr, type AttributeValue } from '../../src/core/onnx/onnx-builder.js';
import { hostTensor, type HostDType, type TensorMap } from '../../src/core/tensor.js';
import { maxDiffBetween } from '../helpers/hf-fixtures.js';
import { nativeOutputs, onnxCpuOutputs } from '../helpers/native-exports.js';
import { testOutputDir } from '../helpers/test-cache.js';
import { tfjsNodeSkip } from '../helpers/tfjs-node.js';

const nodeSkip = await tfjsNodeSkip();
const root = testOutputDir('tf-export-ops');

interface Case {
  readonly name: string;
  readonly opset?: number;
  /** Builds the graph from `x` (float32 [2, 3, 4] unless `input` says otherwise) and returns the output and its dtype. */
  build(g: OnnxModelBuilder, x: string): { out: string; dtype: HostDType };
  readonly input?: { dtype: HostDType; dims: number[]; data: number[] };
}

const f32 = (dims: number[], data: number[]) => hostTensor('float32', dims, Float32Array.from(data));
const i64 = (dims: number[], data: number[]) => hostTensor('int64', dims, BigInt64Array.from(data, (v) => BigInt(v)));
const float = (out: string) => ({ out, dtype: 'float32' as const });
const op1 = (op: string, attrs?: Record<string, AttributeValue>): Case['build'] => (g, x) => float(g.op(op, [x], attrs));

const CASES: readonly Case[] = [
  { name: 'Elu', build: op1('Elu', { alpha: attr.float(0.5) }) },
  { name: 'LeakyRelu', build: op1('LeakyRelu', { alpha: attr.float(0.1) }) },
  { name: 'Sigmoid', build: op1('Sigmoid') },
  { name: 'Exp', build: op1('Exp') },
  { name: 'Clip', build: (g, x) => float(g.op('Clip', [x, g.constant(f32([], [-0.5])), g.constant(f32([], [0.5]))])) },
  { name: 'Max, Min (variadic)', build: (g, x) => float(g.op('Min', [g.op('Max', [x, g.op('Neg', [x]), g.constant(f32([4], [0, 0.1, 0.2, 0.3]))]), g.constant(f32([], [0.9]))])) },
  { name: 'IsInf (positive only)', build: (g, x) => ({ out: g.op('IsInf', [x], { detect_negative: attr.int(0) }), dtype: 'bool' }), input: { dtype: 'float32', dims: [2, 3], data: [1, Infinity, -Infinity, 0, -2, Infinity] } },
  { name: 'Mod (integer, sign of the divisor)', build: (g, x) => ({ out: g.op('Mod', [x, g.constant(i64([], [3]))]), dtype: 'int64' }), input: { dtype: 'int64', dims: [2, 3], data: [7, -7, 5, -5, 0, 9] } },
  { name: 'ReduceSumSquare', build: op1('ReduceSumSquare', { axes: attr.ints([-1]), keepdims: attr.int(0) }) },
  { name: 'ReduceL2', build: op1('ReduceL2', { axes: attr.ints([1]), keepdims: attr.int(1) }) },
  { name: 'ReduceMean (all axes)', build: op1('ReduceMean', { keepdims: attr.int(0) }) },
  { name: 'Size', build: (g, x) => ({ out: g.op('Size', [x]), dtype: 'int64' }) },
  { name: 'ScatterND', build: (g, x) => float(g.op('ScatterND', [g.op('Reshape', [x, g.constant(i64([2], [6, 4]))]), g.constant(i64([2, 1], [1, 4])), g.constant(f32([2, 4], [9, 8, 7, 6, 5, 4, 3, 2]))])) },
  { name: 'Softmax over a middle axis (opset 13)', opset: 13, build: op1('Softmax', { axis: attr.int(1) }) },
  { name: 'Softmax from axis 1 on, flattened (opset 11)', opset: 11, build: op1('Softmax', { axis: attr.int(1) }) },
  { name: 'LayerNormalization over the last two axes', opset: 17, build: (g, x) => float(g.op('LayerNormalization', [x, g.constant(f32([3, 4], Array.from({ length: 12 }, (_, i) => 1 + i / 10))), g.constant(f32([3, 4], Array.from({ length: 12 }, (_, i) => i / 20)))], { axis: attr.int(-2), epsilon: attr.float(1e-5) })) },
  { name: 'Gemm (transA, alpha, beta, 2-D C)', build: (g, x) => float(g.op('Gemm', [g.op('Reshape', [x, g.constant(i64([2], [4, 6]))]), g.constant(f32([4, 5], Array.from({ length: 20 }, (_, i) => Math.sin(i)))), g.constant(f32([6, 5], Array.from({ length: 30 }, (_, i) => i / 30)))], { transA: attr.int(1), alpha: attr.float(0.5), beta: attr.float(2) })) },
  { name: 'MatMul of two activations (BatchMatMulV2)', build: (g, x) => float(g.op('MatMul', [x, g.op('Transpose', [x], { perm: attr.ints([0, 2, 1]) })])) },
  { name: 'Expand (both ways)', build: (g, x) => float(g.op('Expand', [g.op('Reshape', [x, g.constant(i64([4], [2, 1, 3, 4]))]), g.constant(i64([3], [5, 1, 1]))])) },
  { name: 'Tile', build: (g, x) => float(g.op('Tile', [x, g.constant(i64([3], [1, 2, 1]))])) },
  { name: 'Flatten at axis 2', build: op1('Flatten', { axis: attr.int(2) }) },
  { name: 'Split into equal parts', build: (g, x) => float(g.addNode({ opType: 'Split', inputs: [x], outputs: 2, attributes: { axis: attr.int(-1) } })[1] as string) },
  { name: 'Slice with negative axes and steps', build: (g, x) => float(g.op('Slice', [x, g.constant(i64([2], [-1, 2])), g.constant(i64([2], [-9, 0])), g.constant(i64([2], [-1, 1])), g.constant(i64([2], [-1, -2]))])) },
  { name: 'Unsqueeze at negative axes', build: (g, x) => float(g.op('Unsqueeze', [x, g.constant(i64([2], [-1, 1]))])) },
  { name: 'ArgMax without keepdims', build: (g, x) => ({ out: g.op('ArgMax', [x], { axis: attr.int(-1), keepdims: attr.int(0) }), dtype: 'int64' }) },
  { name: 'CumSum exclusive, reversed', build: (g, x) => float(g.op('CumSum', [x, g.constant(i64([], [1]))], { exclusive: attr.int(1), reverse: attr.int(1) })) },
  { name: 'Gather with a negative index', build: (g, x) => float(g.op('Gather', [x, g.constant(i64([2], [-1, 0]))], { axis: attr.int(1) })) },
  { name: 'Range and ConstantOfShape', build: (g, x) => float(g.op('Add', [x, g.op('Range', [g.constant(f32([], [0])), g.constant(f32([], [2])), g.constant(f32([], [0.5]))])])) },
  { name: 'Pow with an integer exponent', build: (g, x) => float(g.op('Pow', [x, g.constant(i64([], [3]))])) },
];

function feedsOf(c: Case): TensorMap {
  const spec = c.input ?? { dtype: 'float32' as const, dims: [2, 3, 4], data: Array.from({ length: 24 }, (_, i) => Math.cos(i * 1.7) * 2) };
  return { x: spec.dtype === 'int64' ? i64(spec.dims, spec.data) : f32(spec.dims, spec.data) };
}

function modelOf(c: Case, i: number): string {
  const g = new OnnxModelBuilder({ opset: c.opset ?? 17 });
  const input = c.input ?? { dtype: 'float32' as const, dims: [2, 3, 4] };
  const x = g.addInput('x', input.dtype, ['batch', ...input.dims.slice(1)]);
  const { out, dtype } = c.build(g, x);
  g.addNode({ opType: 'Identity', inputs: [out], outputs: ['y'], name: 'y_out' });
  g.addOutput('y', dtype, []);
  const dir = join(root, String(i), 'onnx');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'model.onnx'), g.encode());
  return join(dir, 'model.onnx');
}

CASES.forEach((c, i) => {
  test(`${c.name}: GraphModel (tfjs-cpu) matches onnx-cpu`, async () => {
    const path = modelOf(c, i);
    const feeds = feedsOf(c);
    const reference = await onnxCpuOutputs(path, feeds);
    const graph = await nativeOutputs(path, 'cpu', 'graph-model', feeds);
    assert.ok(maxDiffBetween(reference, graph.outputs) <= 1e-5, `GraphModel: ${maxDiffBetween(reference, graph.outputs)}`);
  });
  test(`${c.name}: SavedModel (tfjs-node) matches onnx-cpu`, { skip: nodeSkip }, async () => {
    const path = modelOf(c, i);
    const feeds = feedsOf(c);
    const reference = await onnxCpuOutputs(path, feeds);
    const saved = await nativeOutputs(path, 'node', 'saved-model', feeds);
    assert.ok(maxDiffBetween(reference, saved.outputs) <= 1e-5, `SavedModel: ${maxDiffBetween(reference, saved.outputs)}`);
  });
});
