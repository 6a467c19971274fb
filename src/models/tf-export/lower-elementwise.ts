/**
 * ONNX element-wise ops as TensorFlow ops: one TF op each (ONNX and TF
 * broadcast alike, numpy-style), plus the dtype fix-ups TF needs where ONNX
 * mixes types (Pow's exponent).
 */
import { castTo, tAttr, tensorInts, type LowerContext, type Lowering } from './lower-context.js';
import { bool, type } from './tf-graph.js';

/** Same-named or renamed unary ops taking `T`. */
const UNARY: Readonly<Record<string, string>> = {
  Abs: 'Abs', Neg: 'Neg', Sqrt: 'Sqrt', Erf: 'Erf', Tanh: 'Tanh', Relu: 'Relu', Log: 'Log', Exp: 'Exp', Sigmoid: 'Sigmoid',
  Floor: 'Floor', Ceil: 'Ceil', Reciprocal: 'Reciprocal', Sin: 'Sin', Cos: 'Cos', Sign: 'Sign', Round: 'Round', Softplus: 'Softplus', IsNaN: 'IsNan',
};

/**
 * Binary ops taking `T`. Div on floats is RealDiv; on integers TF's Div
 * truncates toward zero as ONNX Runtime does (a GraphModel's tfjs `div`
 * floors instead, which differs only for negative quotients).
 */
const BINARY: Readonly<Record<string, string>> = {
  Add: 'AddV2', Sub: 'Sub', Mul: 'Mul', Less: 'Less', LessOrEqual: 'LessEqual', Greater: 'Greater', GreaterOrEqual: 'GreaterEqual',
};

const LOGICAL: Readonly<Record<string, string>> = { And: 'LogicalAnd', Or: 'LogicalOr' };

function unary(op: string): Lowering {
  return (x) => [x.b.op(op, [x.input(0).ref], tAttr(x), x.hint())];
}

function binary(op: string): Lowering {
  return (x) => [x.b.op(op, [x.input(0).ref, x.input(1).ref], tAttr(x), x.hint())];
}

/** Variadic Min/Max/Sum as a chain of binary ops. */
function variadic(op: string): Lowering {
  return (x) => {
    let acc = x.input(0).ref;
    for (let i = 1; i < x.node.inputs.length; i++) acc = x.b.op(op, [acc, x.input(i).ref], tAttr(x), x.hint(String(i)));
    return [acc];
  };
}

const div: Lowering = (x) => [x.b.op(x.input(0).dtype === 'DT_FLOAT' ? 'RealDiv' : 'Div', [x.input(0).ref, x.input(1).ref], tAttr(x), x.hint())];

/** Pow: TF wants one dtype, ONNX allows an integer exponent; x^2 is Square (exact, as ONNX Runtime computes it). */
const pow: Lowering = (x) => {
  const base = x.input(0);
  const exponent = x.input(1);
  const constant = tensorInts(exponent.constant);
  if (base.dtype === 'DT_FLOAT' && constant?.length === 1 && constant[0] === 2) return [x.b.op('Square', [base.ref], tAttr(x), x.hint())];
  return [x.b.op('Pow', [base.ref, castTo(x, exponent, base.dtype, 'exponent')], tAttr(x), x.hint())];
};

const equal: Lowering = (x) => [x.b.op('Equal', [x.input(0).ref, x.input(1).ref], { ...tAttr(x), incompatible_shape_error: bool(true) }, x.hint())];

const xor: Lowering = (x) => [x.b.op('NotEqual', [x.input(0).ref, x.input(1).ref], { ...tAttr(x), incompatible_shape_error: bool(true) }, x.hint())];

const not: Lowering = (x) => [x.b.op('LogicalNot', [x.input(0).ref], {}, x.hint())];

const where: Lowering = (x) => [x.b.op('SelectV2', [x.input(0).ref, x.input(1).ref, x.input(2).ref], tAttr(x, 1), x.hint())];

/** Cast; within one TF dtype (int32 → int64 in a GraphModel, where both are int32) the value passes through. */
const cast: Lowering = (x) => {
  const v = x.input(0);
  const to = x.outDtype(0);
  if (v.dtype === to) return [v.ref];
  return [castTo(x, v, to, '')];
};

const identity: Lowering = (x) => [x.input(0).ref];

/** Elu: TF's has alpha 1; another alpha scales its negative part: max(x, 0) + alpha·min(elu(x), 0). */
const elu: Lowering = (x) => {
  const v = x.input(0);
  const out = x.b.op('Elu', [v.ref], tAttr(x), x.hint(''));
  const alpha = x.attrs.float('alpha', 1);
  if (alpha === 1) return [out];
  const c = (n: number, s: string): string => x.b.constant({ dtype: 'DT_FLOAT', dims: [], data: Float32Array.of(n) }, x.hint(s));
  const negative = x.b.op('Mul', [x.b.op('Minimum', [out, c(0, 'zero')], tAttr(x), x.hint('negative_part')), c(alpha, 'alpha')], tAttr(x), x.hint('scaled'));
  return [x.b.op('AddV2', [x.b.op('Maximum', [v.ref, c(0, 'zero')], tAttr(x), x.hint('positive_part')), negative], tAttr(x), x.hint('sum'))];
};

/** LeakyRelu with ONNX's default slope 0.01 (TF's default is 0.2, so it is always written). */
const leakyRelu: Lowering = (x) => [x.b.op('LeakyRelu', [x.input(0).ref], { ...tAttr(x), alpha: { kind: 'f', value: x.attrs.float('alpha', 0.01) } }, x.hint())];

/** IsInf, with ONNX's detect_positive / detect_negative narrowing it to one sign. */
const isInf: Lowering = (x) => {
  const v = x.input(0);
  const inf = x.b.op('IsInf', [v.ref], tAttr(x), x.hint(''));
  const pos = x.attrs.int('detect_positive', 1) === 1;
  const neg = x.attrs.int('detect_negative', 1) === 1;
  if (pos && neg) return [inf];
  const zero = x.b.constant({ dtype: 'DT_FLOAT', dims: [], data: Float32Array.of(0) }, x.hint('zero'));
  const side = x.b.op(pos ? 'Greater' : 'Less', [v.ref, zero], tAttr(x), x.hint('sign'));
  return [pos || neg ? x.b.op('LogicalAnd', [inf, side], {}, x.hint('one_sign')) : x.b.op('LogicalAnd', [inf, x.b.op('LogicalNot', [inf], {}, x.hint('none'))], {}, x.hint('none_set'))];
};

/** Mod: integer Mod with fmod=0 takes the divisor's sign, as TF's FloorMod does; fmod=1 (C fmod) truncates, as TruncateMod. */
const mod: Lowering = (x) => [x.b.op(x.attrs.int('fmod', 0) === 1 ? 'TruncateMod' : 'FloorMod', [x.input(0).ref, x.input(1).ref], tAttr(x), x.hint())];

/** Clip(x, min?, max?) as Maximum then Minimum (inputs since opset 11, attributes before). */
const clip: Lowering = (x: LowerContext) => {
  const v = x.input(0);
  let out = v.ref;
  const bound = (i: number, attr: string): string | undefined => {
    const input = x.optional(i);
    if (input) return input.ref;
    if (!x.attrs.has(attr)) return undefined;
    return x.b.constant({ dtype: 'DT_FLOAT', dims: [], data: Float32Array.of(x.attrs.float(attr, 0)) }, x.hint(attr));
  };
  const lo = bound(1, 'min');
  const hi = bound(2, 'max');
  if (lo !== undefined) out = x.b.op('Maximum', [out, lo], { T: type(v.dtype) }, x.hint('min'));
  if (hi !== undefined) out = x.b.op('Minimum', [out, hi], { T: type(v.dtype) }, x.hint('max'));
  return [out];
};

export const ELEMENTWISE_LOWERINGS: Readonly<Record<string, Lowering>> = {
  ...Object.fromEntries(Object.entries(UNARY).map(([onnx, tf]) => [onnx, unary(tf)])),
  ...Object.fromEntries(Object.entries(BINARY).map(([onnx, tf]) => [onnx, binary(tf)])),
  ...Object.fromEntries(Object.entries(LOGICAL).map(([onnx, tf]) => [onnx, (x: LowerContext) => [x.b.op(tf, [x.input(0).ref, x.input(1).ref], {}, x.hint())]])),
  Min: variadic('Minimum'),
  Max: variadic('Maximum'),
  Sum: variadic('AddV2'),
  Div: div,
  Pow: pow,
  Equal: equal,
  Xor: xor,
  Not: not,
  Where: where,
  Cast: cast,
  Identity: identity,
  Clip: clip,
  LeakyRelu: leakyRelu,
  Elu: elu,
  IsInf: isInf,
  Mod: mod,
};
