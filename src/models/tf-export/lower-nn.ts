/**
 * ONNX's transformer ops as TensorFlow ops: matrix products, softmax,
 * layer normalization, reductions and the gathers (embeddings, indexed
 * rows). Each keeps ONNX's semantics exactly, including where TF's op
 * differs (Softmax's axis before opset 13, Gather's negative indices,
 * GatherElements, which TF lacks).
 */
import type { OnnxTensor } from '../../core/onnx/onnx-decode.js';
import { ExportRefused, asIndex, axisOf, castTo, rankOf, tAttr, type LowerContext, type Lowering, type TfValue } from './lower-context.js';
import { axesOf, concatVectors, shapeOf, sliceVector } from './lower-shape.js';
import { bool, float, int, strings, type, type TfDataType } from './tf-graph.js';

/**
 * A linear layer (a constant 2-D weight) as TF's Dense layers run it: the
 * input's leading dims flattened into rows, one 2-D MatMul with the layer's
 * bias when the converter folded one in (BiasAdd, which TensorFlow's
 * optimizer fuses into the MatMul; in a GraphModel the _FusedMatMul that
 * tensorflowjs_converter writes), and the leading dims restored. One 2-D
 * product is what the backends' fast kernels take: tfjs's batched matMul
 * with a broadcast weight runs one small product per batch row.
 */
function linear(x: LowerContext, a: TfValue, rank: number, w: TfValue, dims: readonly number[]): string {
  const [k, n] = dims as [number, number];
  const dt = a.dtype;
  const rows = rank === 2 ? a.ref : x.b.op('Reshape', [a.ref, x.b.int32([-1, k], x.hint('rows_shape'))], { T: type(dt), Tshape: type('DT_INT32') }, x.hint('rows'));
  const flags = { transpose_a: bool(false), transpose_b: bool(false) };
  let out: string;
  if (x.bias && x.target === 'graph-model') {
    out = x.b.op('_FusedMatMul', [rows, w.ref, x.bias.ref], { T: type(dt), num_args: int(1), fused_ops: strings(['BiasAdd']), epsilon: float(0), leakyrelu_alpha: float(0.2), ...flags }, x.hint());
  } else {
    out = x.b.op('MatMul', [rows, w.ref], { T: type(dt), ...flags }, x.hint());
    if (x.bias) out = x.b.op('BiasAdd', [out, x.bias.ref], { T: type(dt) }, x.hint('bias'));
  }
  if (rank === 2) return out;
  // The same input feeds several projections (Q, K, V): their output shape is computed once.
  const target = x.shared(`linear-shape|${a.ref}|${n}`, () => {
    const lead = sliceVector(x, shapeOf(x, a.ref, dt, 'lead_shape'), x.index, 0, -1, 'lead_dims');
    return concatVectors(x, [lead, x.b.ints([n], x.index, x.hint('width'))], x.index, 'out_shape');
  });
  return x.b.op('Reshape', [out, target], { T: type(dt), Tshape: type(x.index) }, x.hint('unflattened'));
}

/** MatMul: a linear layer (constant 2-D weight) as `linear`; else MatMul of 2-D operands or BatchMatMulV2 (which broadcasts batch dims as ONNX does). */
const matMul: Lowering = (x) => {
  const ra = rankOf(x, 0);
  const rb = rankOf(x, 1);
  if (ra < 2 || rb < 2) throw new ExportRefused(`ONNX node ${x.node.name} (MatMul): 1-D operands are not exported (ranks ${ra} and ${rb})`);
  const weight = x.input(1);
  if (rb === 2 && weight.constant) return [linear(x, x.input(0), ra, weight, weight.constant.dims)];
  const [a, b] = [x.input(0).ref, weight.ref];
  let out = ra === 2 && rb === 2
    ? x.b.op('MatMul', [a, b], { ...tAttr(x), transpose_a: bool(false), transpose_b: bool(false) }, x.hint())
    : x.b.op('BatchMatMulV2', [a, b], { ...tAttr(x), adj_x: bool(false), adj_y: bool(false) }, x.hint());
  if (x.bias) out = x.b.op('AddV2', [out, x.bias.ref], tAttr(x), x.hint('bias'));
  return [out];
};

/** A 2-D ONNX tensor transposed, for weights written the way MatMul reads them. */
function transposed2d(t: OnnxTensor): OnnxTensor {
  const [rows, cols] = t.dims as [number, number];
  const Ctor = t.data.constructor as new (n: number) => typeof t.data;
  const out = new Ctor(t.data.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = t.data[r * cols + c] as never;
  return { name: `${t.name}/transposed`, dtype: t.dtype, dims: [cols, rows], data: out };
}

/**
 * An operand of Gemm in the orientation MatMul reads without transposing:
 * a constant weight is transposed once here, anything else by a Transpose
 * op. TensorFlow 2.21's oneDNN MatMul with transpose_b=true and a constant
 * weight, fused with BiasAdd, gives wrong values for some widths (40, 48,
 * 96: off by whole units), so no MatMul is written with a transpose flag.
 */
function oriented(x: LowerContext, i: number, transpose: boolean): string {
  const v = x.input(i);
  if (!transpose) return v.ref;
  if (v.constant && v.constant.dims.length === 2) return x.constantOf(transposed2d(v.constant));
  return x.b.op('Transpose', [v.ref, x.b.int32([1, 0], x.hint(`perm${i}`))], { T: type(v.dtype), Tperm: type('DT_INT32') }, x.hint(`transposed${i}`));
}

/** Gemm: alpha·op(A)·op(B) + beta·C, with a 1-D C as BiasAdd (which TF's optimizer fuses into the MatMul). */
const gemm: Lowering = (x) => {
  const alpha = x.attrs.float('alpha', 1);
  const beta = x.attrs.float('beta', 1);
  const dt = x.input(0).dtype;
  const a = oriented(x, 0, x.attrs.int('transA', 0) === 1);
  const b = oriented(x, 1, x.attrs.int('transB', 0) === 1);
  let out = x.b.op('MatMul', [a, b], { T: type(dt), transpose_a: bool(false), transpose_b: bool(false) }, x.hint());
  const scalar = (n: number, suffix: string): string => x.b.constant({ dtype: 'DT_FLOAT', dims: [], data: Float32Array.of(n) }, x.hint(suffix));
  if (alpha !== 1) out = x.b.op('Mul', [out, scalar(alpha, 'alpha')], { T: type(dt) }, x.hint('scaled'));
  const c = x.optional(2);
  if (!c || beta === 0) return [out];
  const bias = beta === 1 ? c.ref : x.b.op('Mul', [c.ref, scalar(beta, 'beta')], { T: type(dt) }, x.hint('beta_c'));
  if (c.rank === 1) return [x.b.op('BiasAdd', [out, bias], { T: type(dt) }, x.hint('bias'))];
  return [x.b.op('AddV2', [out, bias], { T: type(dt) }, x.hint('bias'))];
};

/**
 * Softmax and LogSoftmax. TF normalizes over the last axis. Since opset 13
 * ONNX normalizes over one axis (moved last by a transpose when it is not);
 * before, over all axes from `axis` on (flattened into the last).
 */
function softmax(op: 'Softmax' | 'LogSoftmax'): Lowering {
  return (x) => {
    const v = x.input(0);
    const rank = rankOf(x, 0);
    const a = axisOf(x, x.attrs.int('axis', x.opset >= 13 ? -1 : 1), rank);
    const apply = (ref: string, suffix = ''): string => x.b.op(op, [ref], { T: type(v.dtype) }, x.hint(suffix));
    if (a === rank - 1) return [apply(v.ref)];
    if (x.opset >= 13) {
      const perm = Array.from({ length: rank }, (_, i) => (i === a ? rank - 1 : i === rank - 1 ? a : i));
      const permRef = x.b.int32(perm, x.hint('perm'));
      const moved = x.b.op('Transpose', [v.ref, permRef], { T: type(v.dtype), Tperm: type('DT_INT32') }, x.hint('to_last'));
      return [x.b.op('Transpose', [apply(moved, 'last'), permRef], { T: type(v.dtype), Tperm: type('DT_INT32') }, x.hint())];
    }
    const dims = shapeOf(x, v.ref, v.dtype);
    const flat = concatVectors(x, [sliceVector(x, dims, x.index, 0, a, 'outer'), x.b.ints([-1], x.index, x.hint('rest'))], x.index, 'flat_shape');
    const flattened = x.b.op('Reshape', [v.ref, flat], { T: type(v.dtype), Tshape: type(x.index) }, x.hint('flat'));
    return [x.b.op('Reshape', [apply(flattened, 'flat_softmax'), dims], { T: type(v.dtype), Tshape: type(x.index) }, x.hint())];
  };
}

/** LayerNormalization over the axes from `axis` on: (x − mean)·rsqrt(var + ε)·scale + bias, with Mean and InvStdDev outputs when asked. */
const layerNorm: Lowering = (x) => {
  const v = x.input(0);
  const rank = rankOf(x, 0);
  const a = axisOf(x, x.attrs.int('axis', -1), rank);
  const axes = x.b.int32(Array.from({ length: rank - a }, (_, i) => a + i), x.hint('axes'));
  const dt = v.dtype;
  const mean = x.b.op('Mean', [v.ref, axes], { T: type(dt), Tidx: type('DT_INT32'), keep_dims: bool(true) }, x.hint('mean'));
  const variance = x.b.op('Mean', [x.b.op('SquaredDifference', [v.ref, mean], { T: type(dt) }, x.hint('sq_diff')), axes], { T: type(dt), Tidx: type('DT_INT32'), keep_dims: bool(true) }, x.hint('variance'));
  const eps = x.b.constant({ dtype: 'DT_FLOAT', dims: [], data: Float32Array.of(x.attrs.float('epsilon', 1e-5)) }, x.hint('epsilon'));
  const inv = x.b.op('Rsqrt', [x.b.op('AddV2', [variance, eps], { T: type(dt) }, x.hint('var_eps'))], { T: type(dt) }, x.hint('inv_std'));
  const normalized = x.b.op('Mul', [x.b.op('Sub', [v.ref, mean], { T: type(dt) }, x.hint('centered')), inv], { T: type(dt) }, x.hint('normalized'));
  let out = x.b.op('Mul', [normalized, x.input(1).ref], { T: type(dt) }, x.hint('scaled'));
  const bias = x.optional(2);
  if (bias) out = x.b.op('AddV2', [out, bias.ref], { T: type(dt) }, x.hint());
  return [out, mean, inv];
};

/** ReduceMean/Sum/Max/Min/Prod: axes from the attribute or (opset 18, ReduceSum 13) the input; none means all axes. */
function reduce(op: string, axesInputOpset = op === 'Sum' ? 13 : 18): Lowering {
  return (x) => {
    const v = x.input(0);
    const axes = axesOf(x, axesInputOpset, 1);
    const keep = x.attrs.int('keepdims', 1) === 1;
    if (axes !== undefined && axes.length === 0 && x.attrs.int('noop_with_empty_axes', 0) === 1) return [v.ref];
    const axesRef = axes !== undefined && axes.length > 0
      ? x.b.int32(axes, x.hint('axes'))
      : x.b.int32(Array.from({ length: rankOf(x, 0) }, (_, i) => i), x.hint('all_axes'));
    return [x.b.op(op, [v.ref, axesRef], { T: type(v.dtype), Tidx: type('DT_INT32'), keep_dims: bool(keep) }, x.hint())];
  };
}

/** ReduceSumSquare and ReduceL2: Square, then Sum (ReduceSum's axes rules), then Sqrt for L2. */
function squares(l2: boolean): Lowering {
  const sum = reduce('Sum', 18);
  return (x) => {
    const v = x.input(0);
    const squared = x.b.op('Square', [v.ref], { T: type(v.dtype) }, x.hint('squared'));
    const [summed] = sum({ ...x, input: (i) => (i === 0 ? { ...v, ref: squared } : x.input(i)) });
    return [l2 ? x.b.op('Sqrt', [summed as string], { T: type(v.dtype) }, x.hint('l2')) : (summed as string)];
  };
}

/** ArgMax/ArgMin, keeping the reduced axis when `keepdims` (ONNX's default). */
function argReduce(op: 'ArgMax' | 'ArgMin'): Lowering {
  return (x) => {
    if (x.attrs.int('select_last_index', 0) === 1) throw new ExportRefused(`ONNX node ${x.node.name} (${op}): select_last_index=1 has no TensorFlow equivalent`);
    const v = x.input(0);
    const axis = x.attrs.int('axis', 0);
    const axisRef = x.b.int32([axis], x.hint('axis'), true);
    const out = x.b.op(op, [v.ref, axisRef], { T: type(v.dtype), Tidx: type('DT_INT32'), output_type: type(x.outDtype(0)) }, x.hint(x.attrs.int('keepdims', 1) === 1 ? 'reduced' : ''));
    if (x.attrs.int('keepdims', 1) !== 1) return [out];
    return [x.b.op('ExpandDims', [out, axisRef], { T: type(x.outDtype(0)), Tdim: type('DT_INT32') }, x.hint())];
  };
}

const cumSum: Lowering = (x) => [x.b.op('Cumsum', [x.input(0).ref, asIndex(x, 1, 'axis')], {
  ...tAttr(x), Tidx: type(x.index), exclusive: bool(x.attrs.int('exclusive', 0) === 1), reverse: bool(x.attrs.int('reverse', 0) === 1),
}, x.hint())];

/**
 * Indices that may be negative, wrapped as ONNX does (i + dim when i < 0).
 * TF's gathers reject negative indices, so constant ones are wrapped here
 * when the dim is known and in the graph otherwise; computed indices (token
 * ids, positions) are passed as they are.
 */
function wrappedIndices(x: LowerContext, data: TfValue, indices: TfValue, axis: number, dtype: TfDataType): string {
  const ref = castTo(x, indices, dtype, 'indices');
  const known = x.constInts(1);
  if (known === undefined || known.every((i) => i >= 0)) return ref;
  const dimAtAxis = data.constant?.dims[axis];
  if (dimAtAxis !== undefined) return x.b.ints(known.map((i) => (i < 0 ? i + dimAtAxis : i)), dtype, x.hint('indices'), indices.constant?.dims.length === 0);
  const dim = sliceVector(x, shapeOf(x, data.ref, data.dtype, 'data_shape'), x.index, axis, axis + 1, 'dim', true);
  const dimCast = x.index === dtype ? dim : x.b.op('Cast', [dim], { SrcT: type(x.index), DstT: type(dtype), Truncate: bool(false) }, x.hint('dim_cast'));
  const negative = x.b.op('Less', [ref, x.b.ints([0], dtype, x.hint('zero'), true)], { T: type(dtype) }, x.hint('negative'));
  return x.b.op('SelectV2', [negative, x.b.op('AddV2', [ref, dimCast], { T: type(dtype) }, x.hint('wrapped')), ref], { T: type(dtype) }, x.hint('indices'));
}

const gather: Lowering = (x) => {
  const data = x.input(0);
  const indices = x.input(1);
  const axis = axisOf(x, x.attrs.int('axis', 0), rankOf(x, 0));
  const dtype = indices.dtype === 'DT_INT64' ? 'DT_INT64' : 'DT_INT32';
  return [x.b.op('GatherV2', [data.ref, wrappedIndices(x, data, indices, axis, dtype), x.b.int32([axis], x.hint('axis'), true)], {
    Tparams: type(data.dtype), Tindices: type(dtype), Taxis: type('DT_INT32'), batch_dims: int(0),
  }, x.hint())];
};

/**
 * GatherElements, which TF lacks, as GatherNd: every output element's
 * coordinates are its own, with the indexed axis replaced by its index
 * (ranges over Shape(indices) broadcast, packed on a new last axis).
 */
const gatherElements: Lowering = (x) => {
  const data = x.input(0);
  const indices = x.input(1);
  const rank = rankOf(x, 1);
  const axis = axisOf(x, x.attrs.int('axis', 0), rank);
  const dims = shapeOf(x, indices.ref, indices.dtype, 'indices_shape');
  const zero = x.b.ints([0], x.index, x.hint('zero'), true);
  const one = x.b.ints([1], x.index, x.hint('one'), true);
  const coords = Array.from({ length: rank }, (_, d) => {
    if (d === axis) return wrappedIndices(x, data, indices, axis, x.index);
    const n = sliceVector(x, dims, x.index, d, d + 1, `n${d}`, true);
    const steps = x.b.op('Range', [zero, n, one], { Tidx: type(x.index) }, x.hint(`range${d}`));
    const column = x.b.op('Reshape', [steps, x.b.int32(Array.from({ length: rank }, (_, i) => (i === d ? -1 : 1)), x.hint(`column${d}/shape`))], { T: type(x.index), Tshape: type('DT_INT32') }, x.hint(`column${d}`));
    return x.b.op('BroadcastTo', [column, dims], { T: type(x.index), Tidx: type(x.index) }, x.hint(`coord${d}`));
  });
  const packed = x.b.op('Pack', coords, { N: int(rank), T: type(x.index), axis: int(rank) }, x.hint('coords'));
  return [x.b.op('GatherNd', [data.ref, packed], { Tparams: type(data.dtype), Tindices: type(x.index) }, x.hint())];
};

/** ScatterND without reduction: TensorScatterUpdate (indices' last axis indexes data's leading dims, as in ONNX). */
const scatterNd: Lowering = (x) => {
  if (x.attrs.string('reduction', 'none') !== 'none') throw new ExportRefused(`ONNX node ${x.node.name} (ScatterND): reduction=${x.attrs.string('reduction', 'none')} is not exported`);
  const indices = x.input(1);
  return [x.b.op('TensorScatterUpdate', [x.input(0).ref, indices.ref, x.input(2).ref], { T: type(x.input(0).dtype), Tindices: type(indices.dtype === 'DT_INT64' ? 'DT_INT64' : 'DT_INT32') }, x.hint())];
};

/** Size: the element count as a scalar of the index dtype. */
const size: Lowering = (x) => [x.b.op('Size', [x.input(0).ref], { T: type(x.input(0).dtype), out_type: type(x.index) }, x.hint())];

/** Dropout at inference: the input unchanged (and an all-true mask when asked). */
const dropout: Lowering = (x) => {
  if (x.node.outputs.length < 2 || !x.node.outputs[1]) return [x.input(0).ref];
  const dims = shapeOf(x, x.input(0).ref, x.input(0).dtype);
  return [x.input(0).ref, x.b.op('Fill', [dims, x.b.constant({ dtype: 'DT_BOOL', dims: [], data: Uint8Array.of(1) }, x.hint('true'))], { T: type('DT_BOOL'), index_type: type(x.index) }, x.hint('mask'))];
};

/** `Gelu` (opset 20): 0.5·x·(1 + erf(x/√2)), or the tanh approximation. */
const gelu: Lowering = (x) => {
  const v = x.input(0);
  if (x.attrs.string('approximate', 'none') !== 'none') throw new ExportRefused(`ONNX node ${x.node.name} (Gelu): approximate=tanh is not exported`);
  const c = (n: number, s: string): string => x.b.constant({ dtype: 'DT_FLOAT', dims: [], data: Float32Array.of(n) }, x.hint(s));
  const erf = x.b.op('Erf', [x.b.op('Mul', [v.ref, c(Math.SQRT1_2, 'inv_sqrt2')], { T: type(v.dtype) }, x.hint('scaled'))], { T: type(v.dtype) }, x.hint('erf'));
  const onePlus = x.b.op('AddV2', [erf, c(1, 'one')], { T: type(v.dtype) }, x.hint('one_plus'));
  return [x.b.op('Mul', [x.b.op('Mul', [v.ref, c(0.5, 'half')], { T: type(v.dtype) }, x.hint('half_x')), onePlus], { T: type(v.dtype) }, x.hint())];
};

export const NN_LOWERINGS: Readonly<Record<string, Lowering>> = {
  MatMul: matMul,
  Gemm: gemm,
  Softmax: softmax('Softmax'),
  LogSoftmax: softmax('LogSoftmax'),
  LayerNormalization: layerNorm,
  ReduceMean: reduce('Mean'),
  ReduceSum: reduce('Sum'),
  ReduceMax: reduce('Max'),
  ReduceMin: reduce('Min'),
  ReduceProd: reduce('Prod'),
  ReduceSumSquare: squares(false),
  ReduceL2: squares(true),
  ScatterND: scatterNd,
  Size: size,
  ArgMax: argReduce('ArgMax'),
  ArgMin: argReduce('ArgMin'),
  CumSum: cumSum,
  Gather: gather,
  GatherElements: gatherElements,
  Dropout: dropout,
  Gelu: gelu,
};
