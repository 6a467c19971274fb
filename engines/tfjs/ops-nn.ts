import * as tf from '@tensorflow/tfjs-core';
import { layerNormLastAxis } from './custom-kernels.js';
import { broadcastDims, broadcastTensor, dimsOf, normAxis, req, sizeOf, toNumbers, toTensor, type OpHandler } from './op-values.js';

/** Extras a fused MatMul node adds to plain ONNX MatMul. */
export interface MatMulOptions {
  /** 1-D bias over the last output axis, added by the same kernel. */
  readonly bias?: tf.Tensor;
  readonly activation?: 'relu' | undefined;
}

/**
 * ONNX MatMul has numpy semantics (1-D operands, any batch broadcast); tfjs
 * batchMatMul only broadcasts a batch of 1. Activations × 2-D weights, the
 * common transformer case, is folded into one 2-D matmul, which is also the
 * fastest kernel on every backend; with a bias or activation it is one
 * tf.fused.matMul.
 */
export function matMulTensors(a0: tf.Tensor, b0: tf.Tensor, options: MatMulOptions = {}): tf.Tensor {
  const aVec = a0.rank === 1;
  const bVec = b0.rank === 1;
  const a = aVec ? tf.reshape(a0, [1, a0.shape[0] ?? 0]) : a0;
  const b = bVec ? tf.reshape(b0, [b0.shape[0] ?? 0, 1]) : b0;
  const m = a.shape[a.rank - 2] ?? 1;
  const k = a.shape[a.rank - 1] ?? 1;
  const n = b.shape[b.rank - 1] ?? 1;
  const fused = options.bias !== undefined || options.activation !== undefined;
  const mul = (x: tf.Tensor, y: tf.Tensor): tf.Tensor =>
    fused
      ? tf.fused.matMul({ a: x, b: y, ...(options.bias ? { bias: options.bias } : {}), ...(options.activation ? { activation: options.activation } : {}) })
      : tf.matMul(x, y);
  let out: tf.Tensor;
  if (b.rank === 2) {
    const lead = a.shape.slice(0, -2);
    out = mul(a.rank === 2 ? a : tf.reshape(a, [-1, k]), b);
    if (a.rank !== 2) out = tf.reshape(out, [...lead, m, n]);
  } else {
    const batch = broadcastDims(a.shape.slice(0, -2), b.shape.slice(0, -2));
    const fit = (t: tf.Tensor): tf.Tensor => {
      const tb = t.shape.slice(0, -2);
      const same = tb.length === batch.length && tb.every((d, i) => d === batch[i]);
      const one = sizeOf(tb) === 1;
      if (same || one) return t;
      return broadcastTensor(t, [...batch, ...t.shape.slice(-2)]);
    };
    out = mul(fit(a), fit(b));
    if (out.rank !== batch.length + 2) out = tf.reshape(out, [...batch, m, n]);
  }
  if (aVec && bVec) return tf.reshape(out, out.shape.slice(0, -2));
  if (aVec) return tf.reshape(out, [...out.shape.slice(0, -2), n]);
  if (bVec) return tf.reshape(out, out.shape.slice(0, -1));
  return out;
}

const gemm: OpHandler = (inputs, attrs) => {
  const a = toTensor(req(inputs, 0));
  const b = toTensor(req(inputs, 1));
  const alpha = attrs.float('alpha', 1);
  const beta = attrs.float('beta', 1);
  const transposeA = attrs.int('transA', 0) === 1;
  const transposeB = attrs.int('transB', 0) === 1;
  const c = inputs[2];
  // The classifier head's Gemm (alpha = beta = 1, 1-D bias) is one fused kernel; not with transB, which
  // tfjs-wasm 4.22's _FusedMatMul gets wrong when a bias is given (see test/engines/tfjs-ops-nn.test.ts).
  if (alpha === 1 && beta === 1 && !transposeB && c !== undefined && dimsOf(c).length === 1) {
    return [tf.fused.matMul({ a, b, transposeA, transposeB, bias: toTensor(c) })];
  }
  let y = tf.matMul(a, b, transposeA, transposeB);
  if (alpha !== 1) y = tf.mul(y, alpha);
  if (c !== undefined && beta !== 0) y = tf.add(y, beta === 1 ? toTensor(c) : tf.mul(toTensor(c), beta));
  return [y];
};

/**
 * Softmax-like ops. Before opset 13 they flatten to 2-D at `axis` (default 1);
 * from 13 they act on one axis (default -1). tfjs only reduces the last axis,
 * so other axes are transposed there and back.
 */
function softmaxLike(fn: (x: tf.Tensor) => tf.Tensor): OpHandler {
  return (inputs, attrs, ctx) => {
    const x = toTensor(req(inputs, 0));
    const rank = x.rank;
    if (ctx.opset < 13) {
      const axis = normAxis(attrs.int('axis', 1), rank);
      if (axis === rank - 1) return [fn(x)];
      const flat = tf.reshape(x, [sizeOf(x.shape.slice(0, axis)), sizeOf(x.shape.slice(axis))]);
      return [tf.reshape(fn(flat), x.shape)];
    }
    const axis = normAxis(attrs.int('axis', -1), rank);
    if (axis === rank - 1) return [fn(x)];
    const perm = x.shape.map((_, i) => (i === axis ? rank - 1 : i === rank - 1 ? axis : i));
    return [tf.transpose(fn(tf.transpose(x, perm)), perm)];
  };
}

const layerNormalization: OpHandler = (inputs, attrs, ctx) => {
  const x = toTensor(req(inputs, 0));
  const axis = normAxis(attrs.int('axis', -1), x.rank);
  const axes = x.shape.slice(axis).map((_, i) => axis + i);
  const eps = attrs.float('epsilon', 1e-5);
  const scale = toTensor(req(inputs, 1));
  const n = x.shape[x.rank - 1];
  if (axis === x.rank - 1 && ctx.node.outputs.length === 1 && scale.rank === 1 && scale.size === n) {
    const bias = inputs[2] !== undefined ? toTensor(inputs[2]) : undefined;
    if (!bias || (bias.rank === 1 && bias.size === n)) return [layerNormLastAxis(x, scale, bias ?? tf.zerosLike(scale), eps, ctx.scalar?.(eps))];
  }
  const mean = tf.mean(x, axes, true);
  const centered = tf.sub(x, mean);
  const variance = tf.mean(tf.square(centered), axes, true);
  const invStd = tf.rsqrt(tf.add(variance, eps));
  let y = tf.mul(tf.mul(centered, invStd), toTensor(req(inputs, 1)));
  if (inputs[2] !== undefined) y = tf.add(y, toTensor(inputs[2]));
  const outs: tf.Tensor[] = [y];
  if (ctx.node.outputs.length > 1) outs.push(mean, invStd);
  return outs;
};

type Reducer = (x: tf.Tensor, axes: number[], keepDims: boolean) => tf.Tensor;

/**
 * Reductions. Axes became an input in opset 13 for ReduceSum and 18 for the
 * rest, so both places are read; no axes means all axes unless
 * noop_with_empty_axes says identity.
 */
function reduce(fn: Reducer): OpHandler {
  return (inputs, attrs) => {
    const v = req(inputs, 0);
    const x = toTensor(v);
    const given = inputs[1] !== undefined ? toNumbers(inputs[1]) : attrs.ints('axes');
    const keepDims = attrs.int('keepdims', 1) === 1;
    if ((!given || given.length === 0) && attrs.int('noop_with_empty_axes', 0) === 1) return [v];
    const axes = given && given.length > 0 ? given.map((a) => normAxis(a, x.rank)) : x.shape.map((_, i) => i);
    const y = fn(x, axes, keepDims);
    return [y.dtype !== x.dtype && x.dtype === 'int32' ? tf.cast(y, 'int32') : y];
  };
}

/** ArgMax/ArgMin with keepdims and select_last_index (done by reversing the axis). */
function argReduce(fn: (x: tf.Tensor, axis: number) => tf.Tensor): OpHandler {
  return (inputs, attrs) => {
    const x = toTensor(req(inputs, 0));
    const axis = normAxis(attrs.int('axis', 0), x.rank);
    let idx: tf.Tensor;
    if (attrs.int('select_last_index', 0) === 1) {
      idx = tf.sub(tf.scalar((x.shape[axis] ?? 1) - 1, 'int32'), fn(tf.reverse(x, axis), axis));
    } else {
      idx = fn(x, axis);
    }
    return [attrs.int('keepdims', 1) === 1 ? tf.expandDims(idx, axis) : idx];
  };
}

/** Linear algebra, normalisation and reductions. */
export const NN_OPS: Readonly<Record<string, OpHandler>> = {
  MatMul: (inputs) => [matMulTensors(toTensor(req(inputs, 0)), toTensor(req(inputs, 1)))],
  Gemm: gemm,
  Softmax: softmaxLike((x) => tf.softmax(x)),
  LogSoftmax: softmaxLike((x) => tf.logSoftmax(x)),
  LayerNormalization: layerNormalization,
  ReduceMean: reduce((x, a, k) => tf.mean(x, a, k)),
  ReduceSum: reduce((x, a, k) => tf.sum(x, a, k)),
  ReduceMax: reduce((x, a, k) => tf.max(x, a, k)),
  ReduceMin: reduce((x, a, k) => tf.min(x, a, k)),
  ReduceProd: reduce((x, a, k) => tf.prod(x, a, k)),
  ReduceSumSquare: reduce((x, a, k) => tf.sum(tf.square(x), a, k)),
  ReduceL2: reduce((x, a, k) => tf.sqrt(tf.sum(tf.square(x), a, k))),
  ReduceLogSumExp: reduce((x, a, k) => tf.logSumExp(x, a, k)),
  ArgMax: argReduce((x, axis) => tf.argMax(x, axis)),
  ArgMin: argReduce((x, axis) => tf.argMin(x, axis)),
};
