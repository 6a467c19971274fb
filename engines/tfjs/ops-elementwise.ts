import * as tf from '@tensorflow/tfjs-core';
import { gelu } from './custom-kernels.js';
import { onnxDTypeFromCode } from '../../src/core/onnx/onnx-decode.js';
import {
  HOST_MAX_ELEMENTS,
  allHost,
  broadcastDims,
  broadcastTensor,
  dimsOf,
  hostElementwise,
  intToFloat32,
  isHost,
  req,
  sizeOf,
  tfDTypeFor,
  toNumbers,
  toTensor,
  type HostValue,
  type OpHandler,
  type TfDType,
  type Value,
} from './op-values.js';

type TfBinary = (a: tf.Tensor, b: tf.Tensor) => tf.Tensor;
type TfUnary = (x: tf.Tensor) => tf.Tensor;
type HostFn = (...xs: number[]) => number;

/** True when host evaluation is possible and small enough to beat a device round trip. */
function hostable(values: readonly Value[]): values is readonly HostValue[] {
  if (!allHost(values)) return false;
  return sizeOf(values.reduce<number[]>((acc, v) => broadcastDims(acc, v.dims), [])) <= HOST_MAX_ELEMENTS;
}

/** A broadcasting binary op; `outDType` is set for comparisons, which always yield bool. */
function binary(tfFn: TfBinary, hostFn?: HostFn, outDType?: TfDType): OpHandler {
  return (inputs) => {
    const a = req(inputs, 0);
    const b = req(inputs, 1);
    if (hostFn && hostable([a, b])) return [hostElementwise([a, b] as HostValue[], outDType ?? (a as HostValue).dtype, hostFn)];
    return [tfFn(toTensor(a), toTensor(b))];
  };
}

/** An op over any number of same-typed inputs (Max, Min, Sum), folded pairwise. */
function variadic(tfFn: TfBinary, hostFn: HostFn): OpHandler {
  return (inputs) => {
    const values = inputs.filter((v): v is Value => v !== undefined);
    if (values.length === 0) throw new Error('needs at least one input');
    if (hostable(values)) return [hostElementwise(values, values[0]?.dtype ?? 'float32', (...xs) => xs.reduce((p, x) => hostFn(p, x)))];
    const tensors = values.map(toTensor);
    return [tensors.slice(1).reduce((acc, t) => tfFn(acc, t), tensors[0] as tf.Tensor)];
  };
}

function unary(tfFn: TfUnary, hostFn?: HostFn): OpHandler {
  return (inputs) => {
    const x = req(inputs, 0);
    if (hostFn && isHost(x) && x.data.length <= HOST_MAX_ELEMENTS) return [hostElementwise([x], x.dtype, hostFn)];
    return [tfFn(toTensor(x))];
  };
}

/** ONNX integer Div truncates toward zero; tfjs int32 division floors, so negative quotients need the sign fix. */
function div(a: tf.Tensor, b: tf.Tensor): tf.Tensor {
  if (a.dtype !== 'int32') return tf.div(a, b);
  return tf.mul(tf.mul(tf.sign(a), tf.sign(b)), tf.floorDiv(tf.abs(a), tf.abs(b)));
}

/** Pow with the exponents BERT-style graphs use (2, 0.5) mapped to cheaper kernels; output keeps the base's type. */
const pow: OpHandler = (inputs) => {
  const base = req(inputs, 0);
  const exponent = req(inputs, 1);
  if (hostable([base, exponent])) return [hostElementwise([base, exponent] as HostValue[], (base as HostValue).dtype, Math.pow)];
  const x = toTensor(base);
  if (isHost(exponent) && exponent.data.length === 1) {
    const e = exponent.data[0];
    if (e === 1) return [tf.clone(x)];
    if (e === 2) return [tf.square(x)];
    if (e === 0.5 && x.dtype === 'float32') return [tf.sqrt(x)];
  }
  let y = toTensor(exponent);
  if (y.dtype !== x.dtype) y = tf.cast(y, x.dtype);
  return [tf.pow(x, y)];
};

const cast: OpHandler = (inputs, attrs) => {
  const x = req(inputs, 0);
  const onnxTo = onnxDTypeFromCode(attrs.int('to', 0));
  const to = tfDTypeFor(onnxTo);
  if (!to) throw new Error(`Cast to ${onnxTo} is not supported by tfjs`);
  if (isHost(x)) {
    const round: HostFn = to === 'float32' ? (v) => v : to === 'bool' ? (v) => (v ? 1 : 0) : Math.trunc;
    return [hostElementwise([x], to, round)];
  }
  if (x.dtype === to) return [x];
  // tfjs-wasm casts float to bool through an integer (-0.5 → false); ONNX means "non-zero".
  if (to === 'bool') return [tf.notEqual(x, tf.scalar(0, x.dtype))];
  return [to === 'float32' ? intToFloat32(x) : tf.cast(x, to)];
};

/** Clip moved min/max from attributes to optional inputs in opset 11. */
const clip: OpHandler = (inputs, attrs, ctx) => {
  const x = toTensor(req(inputs, 0));
  let lo = -Infinity;
  let hi = Infinity;
  if (ctx.opset < 11) {
    lo = attrs.float('min', lo);
    hi = attrs.float('max', hi);
  } else {
    if (inputs[1]) lo = toNumbers(inputs[1])[0] ?? lo;
    if (inputs[2]) hi = toNumbers(inputs[2])[0] ?? hi;
  }
  return [tf.clipByValue(x, lo, hi)];
};

/** A branch of Where at the output dims: host scalars become tf.fill (attention masks pick between 0 and the float minimum). */
function whereBranch(v: Value, dims: readonly number[]): tf.Tensor {
  if (isHost(v) && v.data.length === 1 && v.dtype !== 'bool') return tf.fill([...dims], v.data[0] ?? 0, v.dtype);
  return broadcastTensor(toTensor(v), dims);
}

/** Where with every operand brought to the output dims first, since tf.where broadcasts through the slow broadcastTo. */
const where: OpHandler = (inputs) => {
  const c = req(inputs, 0);
  const a = req(inputs, 1);
  const b = req(inputs, 2);
  if (hostable([c, a, b])) return [hostElementwise([c, a, b] as HostValue[], (a as HostValue).dtype, (p, x, y) => (p ? x : y))];
  const dims = broadcastDims(broadcastDims(dimsOf(c), dimsOf(a)), dimsOf(b));
  return [tf.where(broadcastTensor(toTensor(c), dims), whereBranch(a, dims), whereBranch(b, dims))];
};

/**
 * And/Or/Xor. Broadcasting bools is slow on tfjs-wasm (see broadcastTensor),
 * so operands of different dims are combined as float 0/1, which is exact.
 */
function logical(tfFn: TfBinary, floatFn: TfBinary, hostFn: HostFn): OpHandler {
  return (inputs) => {
    const a = req(inputs, 0);
    const b = req(inputs, 1);
    if (hostable([a, b])) return [hostElementwise([a, b] as HostValue[], 'bool', hostFn)];
    const x = toTensor(a);
    const y = toTensor(b);
    if (x.shape.length === y.shape.length && x.shape.every((d, i) => d === y.shape[i])) return [tfFn(x, y)];
    return [tf.notEqual(floatFn(tf.cast(x, 'float32'), tf.cast(y, 'float32')), tf.scalar(0, 'float32'))];
  };
}

/** Gelu (opset 20) in both forms, one kernel on wasm and cpu; older graphs spell it out and the fusion pass finds it. */
const geluOp: OpHandler = (inputs, attrs, ctx) => [gelu(toTensor(req(inputs, 0)), attrs.string('approximate', 'none') === 'tanh', ctx.scalar)];

/** Mod: fmod=0 is Python-style (sign of divisor, tf.mod); fmod=1 is C-style (sign of dividend). */
const mod: OpHandler = (inputs, attrs) => {
  const a = req(inputs, 0);
  const b = req(inputs, 1);
  const fmod = attrs.int('fmod', 0) === 1;
  const hostFn: HostFn = fmod ? (x, y) => x % y : (x, y) => x - Math.floor(x / y) * y;
  if (hostable([a, b])) return [hostElementwise([a, b] as HostValue[], (a as HostValue).dtype, hostFn)];
  const x = toTensor(a);
  const y = toTensor(b);
  if (!fmod) return [tf.mod(x, y)];
  // C fmod: x - trunc(x / y) * y; float division needs the truncation spelled out.
  const q = x.dtype === 'int32' ? div(x, y) : tf.mul(tf.sign(tf.div(x, y)), tf.floor(tf.abs(tf.div(x, y))));
  return [tf.sub(x, tf.mul(q, y))];
};

/** IsNaN: bool result whatever the input type; integers are never NaN. */
const isNaN: OpHandler = (inputs) => {
  const x = req(inputs, 0);
  if (isHost(x)) return [hostElementwise([x], 'bool', (v) => Number(Number.isNaN(v)))];
  return [x.dtype === 'float32' ? tf.isNaN(x) : tf.zerosLike(tf.cast(x, 'bool'))];
};

/** IsInf with ONNX's detect_negative / detect_positive switches. */
const isInf: OpHandler = (inputs, attrs) => {
  const x = req(inputs, 0);
  const neg = attrs.int('detect_negative', 1) === 1;
  const pos = attrs.int('detect_positive', 1) === 1;
  const hostFn: HostFn = (v) => Number((neg && v === -Infinity) || (pos && v === Infinity));
  if (isHost(x)) return [hostElementwise([x], 'bool', hostFn)];
  if (x.dtype !== 'float32' || (!neg && !pos)) return [tf.zerosLike(tf.cast(x, 'bool'))];
  if (neg && pos) return [tf.isInf(x)];
  return [tf.equal(x, tf.scalar(neg ? -Infinity : Infinity))];
};

/** Identity-like ops return their input; the executor counts references, so sharing a tensor between names is safe. */
const identity: OpHandler = (inputs) => [req(inputs, 0)];

/** Element-wise ops, including comparisons, logic, activations and Cast. */
export const ELEMENTWISE_OPS: Readonly<Record<string, OpHandler>> = {
  Add: binary(tf.add, (a, b) => a + b),
  Sub: binary(tf.sub, (a, b) => a - b),
  Mul: binary(tf.mul, (a, b) => a * b),
  Div: binary(div, (a, b) => a / b),
  Pow: pow,
  Mod: mod,
  Equal: binary(tf.equal, (a, b) => Number(a === b), 'bool'),
  Less: binary(tf.less, (a, b) => Number(a < b), 'bool'),
  LessOrEqual: binary(tf.lessEqual, (a, b) => Number(a <= b), 'bool'),
  Greater: binary(tf.greater, (a, b) => Number(a > b), 'bool'),
  GreaterOrEqual: binary(tf.greaterEqual, (a, b) => Number(a >= b), 'bool'),
  And: logical(tf.logicalAnd, tf.mul, (a, b) => Number(a && b)),
  Or: logical(tf.logicalOr, tf.maximum, (a, b) => Number(a || b)),
  Xor: logical(tf.logicalXor, tf.notEqual, (a, b) => Number(Boolean(a) !== Boolean(b))),
  Max: variadic(tf.maximum, Math.max),
  Min: variadic(tf.minimum, Math.min),
  Sum: variadic(tf.add, (a, b) => a + b),
  Not: unary(tf.logicalNot, (x) => Number(!x)),
  Neg: unary(tf.neg, (x) => -x),
  Abs: unary(tf.abs, Math.abs),
  Sign: unary(tf.sign, Math.sign),
  Sqrt: unary(tf.sqrt, Math.sqrt),
  Reciprocal: unary(tf.reciprocal, (x) => 1 / x),
  Floor: unary(tf.floor, Math.floor),
  Ceil: unary(tf.ceil, Math.ceil),
  Round: unary(tf.round),
  Exp: unary(tf.exp),
  Log: unary(tf.log),
  Sin: unary(tf.sin),
  Cos: unary(tf.cos),
  Erf: unary(tf.erf),
  IsNaN: isNaN,
  IsInf: isInf,
  Tanh: unary(tf.tanh),
  Sigmoid: unary(tf.sigmoid),
  Relu: unary(tf.relu),
  Softplus: unary(tf.softplus),
  Elu: (inputs, attrs) => {
    const x = toTensor(req(inputs, 0));
    const alpha = attrs.float('alpha', 1);
    return [alpha === 1 ? tf.elu(x) : tf.where(tf.greater(x, 0), x, tf.mul(alpha, tf.sub(tf.exp(x), 1)))];
  },
  LeakyRelu: (inputs, attrs) => [tf.leakyRelu(toTensor(req(inputs, 0)), attrs.float('alpha', 0.01))],
  Gelu: geluOp,
  Clip: clip,
  Where: where,
  Cast: cast,
  Identity: identity,
  /** Inference-mode Dropout is the identity; the optional mask output is all true. */
  Dropout: (inputs, _attrs, ctx) => {
    const x = req(inputs, 0);
    return ctx.node.outputs.length > 1 && ctx.node.outputs[1] ? [x, tf.cast(tf.onesLike(toTensor(x)), 'bool')] : [x];
  },
};
