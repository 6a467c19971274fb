/**
 * ONNX shape and data-movement ops as TensorFlow ops. Batch and sequence
 * dims stay dynamic: a shape that ONNX computes from `Shape` is computed
 * the same way in TF, never frozen at export. ONNX axes counted from the
 * end are resolved with the ranks the probe measured.
 */
import { ExportRefused, asIndex, axisOf, castTo, rankOf, tAttr, type LowerContext, type Lowering } from './lower-context.js';
import { bool, int, ints, type, type TfDataType } from './tf-graph.js';

const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;

/** Axes of an op that took them as an attribute before `inputOpset` and as input `inputIndex` since; undefined when absent. */
export function axesOf(x: LowerContext, inputOpset: number, inputIndex: number, attr = 'axes'): number[] | undefined {
  if (x.opset < inputOpset) return x.attrs.ints(attr)?.slice();
  if (!x.optional(inputIndex)) return undefined;
  const values = x.constInts(inputIndex);
  if (values === undefined) throw new ExportRefused(`ONNX node ${x.node.name} (${x.node.opType}): its ${attr} are computed at run time; the exporter needs them constant`);
  return values;
}

/** `Shape(v)` as an `x.index` vector, made once per tensor however many lowerings read it. */
export function shapeOf(x: LowerContext, ref: string, dtype: TfDataType, suffix = 'shape'): string {
  return x.shared(`shape|${ref}`, () => x.b.op('Shape', [ref], { T: type(dtype), out_type: type(x.index) }, x.hint(suffix)));
}

/** `v[begin:end]` of a 1-D tensor with constant bounds (end null: to the end), or one element as a scalar when `scalar`. */
export function sliceVector(x: LowerContext, ref: string, dtype: TfDataType, begin: number, end: number | null, suffix: string, scalar = false): string {
  return x.b.op('StridedSlice', [ref, x.b.int32([begin], `${x.hint(suffix)}/begin`), x.b.int32([end ?? 0], `${x.hint(suffix)}/end`), x.b.int32([1], `${x.hint(suffix)}/strides`)], {
    T: type(dtype), Index: type('DT_INT32'), begin_mask: int(0), end_mask: int(end === null ? 1 : 0), ellipsis_mask: int(0), new_axis_mask: int(0), shrink_axis_mask: int(scalar ? 1 : 0),
  }, x.hint(suffix));
}

/** ConcatV2 of 1-D pieces along axis 0. */
export function concatVectors(x: LowerContext, pieces: readonly string[], dtype: TfDataType, suffix: string): string {
  if (pieces.length === 1) return pieces[0] as string;
  return x.b.op('ConcatV2', [...pieces, x.b.int32([0], `${x.hint(suffix)}/axis`, true)], { N: int(pieces.length), T: type(dtype), Tidx: type('DT_INT32') }, x.hint(suffix));
}

const shapeOp: Lowering = (x) => {
  const v = x.input(0);
  const full = shapeOf(x, v.ref, v.dtype, '');
  const start = x.attrs.int('start', 0);
  const end = x.attrs.has('end') ? x.attrs.int('end', 0) : null;
  if (start === 0 && end === null) return [full];
  return [sliceVector(x, full, x.index, start, end, 'range')];
};

/**
 * Reshape. ONNX's 0 copies the input's dim (unless allowzero); TF's 0 is a
 * zero-length dim, so a constant shape with zeros takes those dims from
 * `Shape(x)`. A computed shape is used as is when the probe saw no 0 in it
 * (its entries are dims read from tensors); otherwise its zeros are
 * replaced by the input's dims at run time.
 */
const reshape: Lowering = (x) => {
  const v = x.input(0);
  const constant = x.constInts(1);
  const allowZero = x.attrs.int('allowzero', 0) === 1;
  if (constant === undefined) {
    const target = asIndex(x, 1, 'shape');
    const probed = x.probedInts(1);
    if (allowZero || (probed !== undefined && !probed.includes(0))) return [x.b.op('Reshape', [v.ref, target], { T: type(v.dtype), Tshape: type(x.index) }, x.hint())];
    const n = probed?.length ?? x.outRank(0);
    const dims = shapeOf(x, v.ref, v.dtype, 'input_shape');
    const rank = rankOf(x, 0);
    const own = n <= rank ? sliceVector(x, dims, x.index, 0, n, 'own_dims') : concatVectors(x, [dims, x.b.ints(new Array<number>(n - rank).fill(1), x.index, x.hint('pad'))], x.index, 'own_dims');
    const zero = x.b.op('Equal', [target, x.b.ints([0], x.index, x.hint('zero'), true)], { T: type(x.index), incompatible_shape_error: bool(true) }, x.hint('zeros'));
    const fixed = x.b.op('SelectV2', [zero, own, target], { T: type(x.index) }, x.hint('shape_fixed'));
    return [x.b.op('Reshape', [v.ref, fixed], { T: type(v.dtype), Tshape: type(x.index) }, x.hint())];
  }
  if (allowZero || !constant.includes(0)) return [x.b.op('Reshape', [v.ref, x.b.int32(constant, x.hint('shape'))], { T: type(v.dtype), Tshape: type('DT_INT32') }, x.hint())];
  // Runs of copied dims are one slice of Shape(x) each, runs of given dims one constant: [0, 0, 2, 64] is Shape(x)[0:2] ++ [2, 64].
  const dims = shapeOf(x, v.ref, v.dtype, 'input_shape');
  const pieces: string[] = [];
  for (let i = 0; i < constant.length; ) {
    let j = i;
    const copied = constant[i] === 0;
    while (j < constant.length && (constant[j] === 0) === copied) j++;
    pieces.push(copied ? sliceVector(x, dims, x.index, i, j, `dims${i}`) : x.b.ints(constant.slice(i, j), x.index, x.hint(`dims${i}`)));
    i = j;
  }
  const target = concatVectors(x, pieces, x.index, 'shape');
  return [x.b.op('Reshape', [v.ref, target], { T: type(v.dtype), Tshape: type(x.index) }, x.hint())];
};

/** Unsqueeze: one ExpandDims per axis, ascending, axes counted in the output's rank. */
const unsqueeze: Lowering = (x) => {
  const axes = axesOf(x, 13, 1);
  if (!axes) throw new ExportRefused(`ONNX node ${x.node.name} (Unsqueeze) has no axes`);
  const rank = x.outRank(0);
  let out = x.input(0).ref;
  for (const a of axes.map((a) => axisOf(x, a, rank)).sort((p, q) => p - q)) {
    out = x.b.op('ExpandDims', [out, x.b.int32([a], x.hint(`axis${a}`), true)], { T: type(x.input(0).dtype), Tdim: type('DT_INT32') }, x.hint());
  }
  return [out];
};

/** Squeeze: the listed axes, or every size-1 dim when none are (TF decides that at run time too). */
const squeeze: Lowering = (x) => {
  const axes = axesOf(x, 13, 1);
  const rank = rankOf(x, 0);
  const dims = axes === undefined ? [] : axes.map((a) => axisOf(x, a, rank));
  return [x.b.op('Squeeze', [x.input(0).ref], { T: type(x.input(0).dtype), squeeze_dims: ints(dims) }, x.hint())];
};

/** Flatten to 2-D: [prod(dims[:axis]), prod(dims[axis:])], computed from Shape(x). */
const flatten: Lowering = (x) => {
  const v = x.input(0);
  const rank = rankOf(x, 0);
  const axis = x.attrs.int('axis', 1);
  const a = axis < 0 ? axis + rank : axis;
  const dims = shapeOf(x, v.ref, v.dtype);
  const prod = (begin: number, end: number | null, suffix: string): string => {
    if (end !== null && end <= begin) return x.b.ints([1], x.index, x.hint(suffix));
    const part = sliceVector(x, dims, x.index, begin, end, `${suffix}/dims`);
    return x.b.op('Prod', [part, x.b.int32([0], x.hint(`${suffix}/axis`))], { T: type(x.index), Tidx: type('DT_INT32'), keep_dims: bool(true) }, x.hint(suffix));
  };
  const target = concatVectors(x, [prod(0, a, 'outer'), prod(a, a >= rank ? a : null, 'inner')], x.index, 'shape');
  return [x.b.op('Reshape', [v.ref, target], { T: type(v.dtype), Tshape: type(x.index) }, x.hint())];
};

/** Expand broadcasts both ways (numpy), TF's BroadcastTo only one: the target is BroadcastArgs(Shape(x), shape). */
const expand: Lowering = (x) => {
  const v = x.input(0);
  const target = x.b.op('BroadcastArgs', [shapeOf(x, v.ref, v.dtype), asIndex(x, 1, 'shape')], { T: type(x.index) }, x.hint('target'));
  return [x.b.op('BroadcastTo', [v.ref, target], { T: type(v.dtype), Tidx: type(x.index) }, x.hint())];
};

/** ConstantOfShape: Fill with the `value` attribute's single element (float 0 by default). */
const constantOfShape: Lowering = (x) => {
  const t = x.attrs.tensor('value');
  const dtype = x.outDtype(0);
  const n = t ? Number(t.data[0] ?? 0) : 0;
  const scalar = x.b.ints([n], dtype, x.hint('value'), true);
  return [x.b.op('Fill', [asIndex(x, 0, 'shape'), scalar], { T: type(dtype), index_type: type(x.index) }, x.hint())];
};

const range: Lowering = (x) => {
  const dtype = x.outDtype(0);
  const args = [0, 1, 2].map((i) => castTo(x, x.input(i), dtype, `arg${i}`));
  return [x.b.op('Range', args, { Tidx: type(dtype) }, x.hint())];
};

const concat: Lowering = (x) => {
  const values = x.node.inputs.map((_, i) => x.input(i));
  // ConcatV2 takes two or more tensors; one is itself.
  if (values.length === 1) return [values[0]?.ref as string];
  const axis = x.attrs.int('axis', 0);
  return [x.b.op('ConcatV2', [...values.map((v) => v.ref), x.b.int32([axis], x.hint('axis'), true)], { N: int(values.length), T: type(values[0]?.dtype ?? 'DT_FLOAT'), Tidx: type('DT_INT32') }, x.hint())];
};

const transpose: Lowering = (x) => {
  const rank = rankOf(x, 0);
  const perm = x.attrs.ints('perm')?.slice() ?? Array.from({ length: rank }, (_, i) => rank - 1 - i);
  return [x.b.op('Transpose', [x.input(0).ref, x.b.int32(perm, x.hint('perm'))], { ...tAttr(x), Tperm: type('DT_INT32') }, x.hint())];
};

/** Split: SplitV with the sizes (input since opset 13, attribute before), else equal parts with Split. */
const split: Lowering = (x) => {
  const v = x.input(0);
  const axis = x.attrs.int('axis', 0);
  const n = x.node.outputs.length;
  const sizes = x.opset >= 13 ? (x.optional(1) ? x.constInts(1) : undefined) : x.attrs.ints('split')?.slice();
  if (x.opset >= 13 && x.optional(1) && sizes === undefined) throw new ExportRefused(`ONNX node ${x.node.name} (Split): its split sizes are computed at run time; the exporter needs them constant`);
  const axisRef = x.b.int32([axis], x.hint('axis'), true);
  const name = sizes
    ? x.b.op('SplitV', [v.ref, x.b.int32(sizes, x.hint('sizes')), axisRef], { num_split: int(n), T: type(v.dtype), Tlen: type('DT_INT32') }, x.hint())
    : x.b.op('Split', [axisRef, v.ref], { num_split: int(n), T: type(v.dtype) }, x.hint());
  return Array.from({ length: n }, (_, i) => (i === 0 ? name : `${name}:${i}`));
};

/**
 * An ONNX bound as a StridedSlice bound. Bounds past any dim (INT64_MAX
 * ends) saturate: at int32 in a GraphModel, and in a SavedModel at the
 * largest integer a JS number holds exactly (INT64_MAX itself rounds to
 * 2^63, which wraps to INT64_MIN). TF clamps bounds to the dim either way.
 */
function clampBound(x: LowerContext, n: number): number {
  const limit = x.index === 'DT_INT64' ? Number.MAX_SAFE_INTEGER : INT32_MAX;
  return Math.min(limit, Math.max(x.index === 'DT_INT64' ? -Number.MAX_SAFE_INTEGER : INT32_MIN, n));
}

/**
 * Slice as StridedSlice over every axis up to the last sliced one: untouched
 * axes get begin/end mask bits. Constant bounds become constant vectors;
 * computed ones are gathered into place from `[values..., 0]`.
 */
const slice: Lowering = (x) => {
  const v = x.input(0);
  const rank = rankOf(x, 0);
  const fromInputs = x.opset >= 10;
  const starts = fromInputs ? x.constInts(1) : x.attrs.ints('starts')?.slice();
  const ends = fromInputs ? x.constInts(2) : x.attrs.ints('ends')?.slice();
  const rawAxes = fromInputs ? (x.optional(3) ? x.constInts(3) : undefined) : x.attrs.ints('axes')?.slice();
  const steps = fromInputs && x.optional(4) ? x.constInts(4) : undefined;
  if (fromInputs && ((x.optional(3) && rawAxes === undefined) || (x.optional(4) && steps === undefined))) {
    throw new ExportRefused(`ONNX node ${x.node.name} (Slice): its axes or steps are computed at run time; the exporter needs them constant`);
  }
  const count = starts?.length ?? ends?.length ?? x.probedInts(1)?.length;
  if (rawAxes === undefined && count === undefined) throw new ExportRefused(`ONNX node ${x.node.name} (Slice): neither its axes nor the length of its starts are known`);
  const axes = (rawAxes ?? Array.from({ length: count ?? 0 }, (_, i) => i)).map((a) => axisOf(x, a, rank));
  const span = Math.max(...axes, -1) + 1;
  const position = new Map(axes.map((a, j) => [a, j]));
  let mask = 0;
  for (let i = 0; i < span; i++) if (!position.has(i)) mask |= 1 << i;
  const vector = (known: number[] | undefined, inputIndex: number, fill: number, suffix: string): string => {
    if (known !== undefined) return x.b.ints(Array.from({ length: span }, (_, i) => clampBound(x, position.has(i) ? (known[position.get(i) as number] as number) : fill)), x.index, x.hint(suffix));
    // Computed bounds: gather [values..., fill] so each axis takes its bound or the fill.
    const padded = concatVectors(x, [asIndex(x, inputIndex, suffix), x.b.ints([fill], x.index, x.hint(`${suffix}/fill`))], x.index, `${suffix}/padded`);
    const order = Array.from({ length: span }, (_, i) => position.get(i) ?? axes.length);
    return x.b.op('GatherV2', [padded, x.b.int32(order, x.hint(`${suffix}/order`)), x.b.int32([0], x.hint(`${suffix}/axis`), true)], {
      Tparams: type(x.index), Tindices: type('DT_INT32'), Taxis: type('DT_INT32'), batch_dims: int(0),
    }, x.hint(suffix));
  };
  const begin = vector(starts, 1, 0, 'begin');
  const end = vector(ends, 2, 0, 'end');
  const strides = x.b.ints(Array.from({ length: span }, (_, i) => (position.has(i) ? (steps?.[position.get(i) as number] ?? 1) : 1)), x.index, x.hint('strides'));
  return [x.b.op('StridedSlice', [v.ref, begin, end, strides], {
    T: type(v.dtype), Index: type(x.index), begin_mask: int(mask), end_mask: int(mask), ellipsis_mask: int(0), new_axis_mask: int(0), shrink_axis_mask: int(0),
  }, x.hint())];
};

/** Tile with the repeats cast to the index dtype. */
const tile: Lowering = (x) => [x.b.op('Tile', [x.input(0).ref, asIndex(x, 1, 'repeats')], { ...tAttr(x), Tmultiples: type(x.index) }, x.hint())];

export const SHAPE_LOWERINGS: Readonly<Record<string, Lowering>> = {
  Shape: shapeOp,
  Reshape: reshape,
  Unsqueeze: unsqueeze,
  Squeeze: squeeze,
  Flatten: flatten,
  Expand: expand,
  ConstantOfShape: constantOfShape,
  Range: range,
  Concat: concat,
  Transpose: transpose,
  Split: split,
  Slice: slice,
  Tile: tile,
};
