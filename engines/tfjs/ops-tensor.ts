import * as tf from '@tensorflow/tfjs-core';
import {
  HOST_MAX_ELEMENTS,
  broadcastDims,
  broadcastTensor,
  dimsOf,
  hostRemap,
  hostValue,
  dtypeOf,
  hostMirrorOf,
  isHost,
  normAxis,
  req,
  sizeOf,
  stridesOf,
  tfDTypeFor,
  toNumbers,
  toTensor,
  valueFromOnnxTensor,
  type HostMirror,
  type HostValue,
  type OpHandler,
  type Value,
} from './op-values.js';

/** Same data, new dims: free on the host, a metadata-only reshape on the device. */
function reshapeTo(x: Value, dims: readonly number[]): Value {
  if (isHost(x)) return hostValue(x.dtype, dims, x.data);
  return tf.reshape(x, [...dims]);
}

/** Resolves ONNX Reshape's 0 (copy the input dim, unless allowzero) and -1 (infer). */
function resolveShape(inDims: readonly number[], shape: readonly number[], allowZero: boolean): number[] {
  const out = shape.map((s, i) => (s === 0 && !allowZero ? (inDims[i] ?? 0) : s));
  const inferAt = out.indexOf(-1);
  if (inferAt >= 0) {
    const known = out.reduce((p, d, i) => (i === inferAt ? p : p * d), 1);
    out[inferAt] = known === 0 ? 0 : sizeOf(inDims) / known;
  }
  if (sizeOf(out) !== sizeOf(inDims) || out.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new Error(`cannot reshape [${inDims.join(',')}] to [${shape.join(',')}]`);
  }
  return out;
}

const reshape: OpHandler = (inputs, attrs) => {
  const x = req(inputs, 0);
  // Opset < 5 carried the shape as an attribute.
  const shape = inputs[1] ? toNumbers(inputs[1]) : (attrs.ints('shape') ?? []);
  return [reshapeTo(x, resolveShape(dimsOf(x), shape, attrs.int('allowzero', 0) === 1))];
};

const flatten: OpHandler = (inputs, attrs) => {
  const x = req(inputs, 0);
  const dims = dimsOf(x);
  const axis = attrs.int('axis', 1);
  const a = axis < 0 ? axis + dims.length : axis;
  return [reshapeTo(x, [sizeOf(dims.slice(0, a)), sizeOf(dims.slice(a))])];
};

/** Axes moved from attribute to input in opset 13 for Unsqueeze/Squeeze (18 for reductions). */
function axesOf(inputs: readonly (Value | undefined)[], attrs: { ints(name: string): readonly number[] | undefined }): readonly number[] | undefined {
  return inputs[1] ? toNumbers(inputs[1]) : attrs.ints('axes');
}

const unsqueeze: OpHandler = (inputs, attrs) => {
  const x = req(inputs, 0);
  const axes = axesOf(inputs, attrs) ?? [];
  const dims = [...dimsOf(x)];
  const rank = dims.length + axes.length;
  for (const a of axes.map((v) => normAxis(v, rank)).sort((p, q) => p - q)) dims.splice(a, 0, 1);
  return [reshapeTo(x, dims)];
};

const squeeze: OpHandler = (inputs, attrs) => {
  const x = req(inputs, 0);
  const dims = dimsOf(x);
  const axes = axesOf(inputs, attrs);
  const drop = new Set(axes ? axes.map((a) => normAxis(a, dims.length)) : dims.flatMap((d, i) => (d === 1 ? [i] : [])));
  return [reshapeTo(x, dims.filter((_, i) => !drop.has(i)))];
};

/** Shape is answered from tensor metadata, so shape subgraphs never touch the device. */
const shape: OpHandler = (inputs, attrs) => {
  const dims = dimsOf(req(inputs, 0));
  const clampEnd = (v: number): number => Math.max(0, Math.min(dims.length, v < 0 ? v + dims.length : v));
  const start = clampEnd(attrs.int('start', 0));
  const end = attrs.has('end') ? clampEnd(attrs.int('end', dims.length)) : dims.length;
  const out = dims.slice(start, Math.max(start, end));
  return [hostValue('int32', [out.length], out)];
};

const size: OpHandler = (inputs) => [hostValue('int32', [], [sizeOf(dimsOf(req(inputs, 0)))])];

const transpose: OpHandler = (inputs, attrs) => {
  const x = req(inputs, 0);
  const dims = dimsOf(x);
  const perm = attrs.ints('perm') ?? dims.map((_, i) => dims.length - 1 - i);
  if (!isHost(x)) return [tf.transpose(x, [...perm])];
  const strides = stridesOf(dims);
  return [hostRemap(x, perm.map((p) => dims[p] ?? 1), (c) => c.reduce((s, v, i) => s + v * (strides[perm[i] ?? 0] ?? 0), 0))];
};

const concat: OpHandler = (inputs, attrs) => {
  const values = inputs.filter((v): v is Value => v !== undefined);
  const first = values[0];
  if (!first) throw new Error('Concat needs inputs');
  const axis = normAxis(attrs.int('axis', 0), dimsOf(first).length);
  if (values.every(isHost)) {
    const hosts = values as HostValue[];
    const outer = sizeOf(dimsOf(first).slice(0, axis));
    const data: number[] = [];
    for (let o = 0; o < outer; o++) {
      for (const h of hosts) {
        const chunk = sizeOf(h.dims.slice(axis));
        for (let k = 0; k < chunk; k++) data.push(h.data[o * chunk + k] ?? 0);
      }
    }
    const dims = [...dimsOf(first)];
    dims[axis] = hosts.reduce((s, h) => s + (h.dims[axis] ?? 0), 0);
    return [hostValue(hosts[0]?.dtype ?? 'int32', dims, data)];
  }
  // tfjs rejects empty parts in some backends; ONNX allows them, and they add nothing.
  const all = values.map(toTensor);
  const tensors = all.filter((t) => t.size > 0);
  if (tensors.length === 0) return [tf.concat(all, axis)];
  return [tensors.length === 1 ? (tensors[0] as tf.Tensor) : tf.concat(tensors, axis)];
};

/** Per-axis start/step/count after ONNX Slice's clamping rules, which differ for negative steps. */
interface SliceAxis { start: number; step: number; count: number; end: number }

function sliceAxes(dims: readonly number[], starts: readonly number[], ends: readonly number[], axes: readonly number[] | undefined, steps: readonly number[] | undefined): SliceAxis[] {
  const plan: SliceAxis[] = dims.map((d) => ({ start: 0, step: 1, count: d, end: d }));
  starts.forEach((s0, i) => {
    const axis = normAxis(axes?.[i] ?? i, dims.length);
    const d = dims[axis] ?? 0;
    const step = steps?.[i] ?? 1;
    if (step === 0) throw new Error('Slice step cannot be 0');
    let start = s0 < 0 ? s0 + d : s0;
    const e0 = ends[i] ?? d;
    let end = e0 < 0 ? e0 + d : e0;
    if (step > 0) {
      start = Math.max(0, Math.min(d, start));
      end = Math.max(0, Math.min(d, end));
    } else {
      start = Math.max(0, Math.min(d - 1, start));
      end = Math.max(-1, Math.min(d - 1, end));
    }
    const count = Math.max(0, Math.ceil((end - start) / step));
    plan[axis] = { start, step, count, end };
  });
  return plan;
}

const slice: OpHandler = (inputs, attrs, ctx) => {
  const x = req(inputs, 0);
  const dims = dimsOf(x);
  const old = ctx.opset < 10;
  const starts = old ? (attrs.ints('starts') ?? []) : toNumbers(req(inputs, 1));
  const ends = old ? (attrs.ints('ends') ?? []) : toNumbers(req(inputs, 2));
  const axes = old ? attrs.ints('axes') : inputs[3] && toNumbers(inputs[3]);
  const steps = old ? undefined : inputs[4] && toNumbers(inputs[4]);
  const plan = sliceAxes(dims, starts, ends, axes, steps);
  const outDims = plan.map((p) => p.count);
  if (isHost(x)) {
    const strides = stridesOf(dims);
    return [hostRemap(x, outDims, (c) => c.reduce((s, v, i) => s + ((plan[i]?.start ?? 0) + v * (plan[i]?.step ?? 1)) * (strides[i] ?? 0), 0))];
  }
  if (plan.every((p) => p.step === 1)) return [tf.slice(x, plan.map((p) => p.start), outDims)];
  // Negative steps may end "before index 0", which stridedSlice expresses with endMask, not -1.
  let endMask = 0;
  plan.forEach((p, i) => { if (p.end < 0) endMask |= 1 << i; });
  return [tf.stridedSlice(x, plan.map((p) => p.start), plan.map((p) => p.end), plan.map((p) => p.step), 0, endMask)];
};

/** Gather rows of a host-mirrored table with host-known indices: plain typed-array copies, then one upload. */
function gatherRows(table: HostMirror, dims: readonly number[], idx: readonly number[], idxDims: readonly number[], dtype: 'float32' | 'int32'): tf.Tensor {
  const row = sizeOf(dims.slice(1));
  const out = table instanceof Float32Array ? new Float32Array(idx.length * row) : new Int32Array(idx.length * row);
  idx.forEach((r, i) => out.set(table.subarray(r * row, (r + 1) * row), i * row));
  return tf.tensor(out, [...idxDims, ...dims.slice(1)], dtype);
}

const gather: OpHandler = (inputs, attrs) => {
  const x = req(inputs, 0);
  const indices = req(inputs, 1);
  const dims = dimsOf(x);
  const axis = normAxis(attrs.int('axis', 0), dims.length);
  const axisDim = dims[axis] ?? 0;
  const known = isHost(indices) ? indices.data : hostMirrorOf(indices);
  if (!known) {
    // Indices only on the device: ONNX allows negative ones, tfjs does not, so wrap them there.
    const t = (indices as tf.Tensor).dtype === 'int32' ? (indices as tf.Tensor) : tf.cast(indices as tf.Tensor, 'int32');
    const wrapped = tf.where(tf.less(t, tf.scalar(0, 'int32')), tf.add(t, tf.scalar(axisDim, 'int32')), t);
    return [tf.gather(toTensor(x), wrapped, axis)];
  }
  const idxDims = dimsOf(indices);
  let negative = false;
  const idx = Array.from(known, (i) => {
    if (i < -axisDim || i >= axisDim) throw new Error(`Gather index ${i} is out of range for an axis of size ${axisDim}`);
    if (i < 0) negative = true;
    return i < 0 ? i + axisDim : i;
  });
  // On tfjs-webgpu the table is already on the GPU: a gather there uploads the ids, where host row copies would upload [batch, seq, hidden] floats.
  const table = tf.getBackend() === 'webgpu' ? undefined : hostMirrorOf(x);
  if (table && axis === 0) return [gatherRows(table, dims, idx, idxDims, dtypeOf(x) === 'int32' ? 'int32' : 'float32')];
  if (isHost(x)) {
    const outDims = [...dims.slice(0, axis), ...idxDims, ...dims.slice(axis + 1)];
    const strides = stridesOf(dims);
    const idxStrides = stridesOf(idxDims);
    const k = idxDims.length;
    return [hostRemap(x, outDims, (c) => {
      let flat = 0;
      for (let j = 0; j < k; j++) flat += (c[axis + j] ?? 0) * (idxStrides[j] ?? 0);
      let s = (idx[flat] ?? 0) * (strides[axis] ?? 0);
      for (let d = 0; d < axis; d++) s += (c[d] ?? 0) * (strides[d] ?? 0);
      for (let d = axis + 1; d < dims.length; d++) s += (c[d - 1 + k] ?? 0) * (strides[d] ?? 0);
      return s;
    })];
  }
  // Host indices without negatives reuse their tensor form (a folded or constant value's is made once, not uploaded each run).
  const idxTensor = !negative && dtypeOf(indices) === 'int32' ? toTensor(indices) : toTensor(hostValue('int32', idxDims, idx));
  return [tf.gather(x, idxTensor, axis)];
};

const expand: OpHandler = (inputs) => {
  const x = req(inputs, 0);
  const inDims = dimsOf(x);
  const outDims = broadcastDims(inDims, toNumbers(req(inputs, 1)));
  if (outDims.length === inDims.length && outDims.every((d, i) => d === inDims[i])) return [x];
  if (isHost(x) && sizeOf(outDims) <= HOST_MAX_ELEMENTS) {
    const off = outDims.length - inDims.length;
    const strides = stridesOf(inDims);
    return [hostRemap(x, outDims, (c) => inDims.reduce((s, d, i) => s + (d === 1 ? 0 : (c[i + off] ?? 0) * (strides[i] ?? 0)), 0))];
  }
  return [broadcastTensor(toTensor(x), outDims)];
};

const constantOfShape: OpHandler = (inputs, attrs) => {
  const dims = toNumbers(req(inputs, 0));
  const t = attrs.tensor('value');
  const dtype = (t && tfDTypeFor(t.dtype)) || 'float32';
  const v = t ? Number(t.data[0] ?? 0) : 0;
  if (dtype !== 'float32' && sizeOf(dims) <= HOST_MAX_ELEMENTS) return [hostValue(dtype, dims, new Array<number>(sizeOf(dims)).fill(v))];
  if (dtype === 'bool') return [tf.cast(tf.fill([...dims], v, 'int32'), 'bool')];
  return [tf.fill([...dims], v, dtype)];
};

const range: OpHandler = (inputs) => {
  const [start, limit, delta] = [0, 1, 2].map((i) => toNumbers(req(inputs, i))[0] ?? 0) as [number, number, number];
  const dtype = isHost(req(inputs, 0)) ? (req(inputs, 0) as HostValue).dtype : ((req(inputs, 0) as tf.Tensor).dtype as 'float32' | 'int32');
  const n = Math.max(Math.ceil((limit - start) / delta), 0);
  if (n <= HOST_MAX_ELEMENTS) {
    const data = Array.from({ length: n }, (_, i) => (dtype === 'float32' ? Math.fround(start + i * delta) : start + i * delta));
    return [hostValue(dtype === 'bool' ? 'int32' : dtype, [n], data)];
  }
  return [tf.range(start, limit, delta, dtype === 'int32' ? 'int32' : 'float32')];
};

/** Split sizes come from an input (opset 13+), the `split` attribute, or equal parts (num_outputs or output count). */
const split: OpHandler = (inputs, attrs, ctx) => {
  const x = toTensor(req(inputs, 0));
  const axis = normAxis(attrs.int('axis', 0), x.rank);
  const d = x.shape[axis] ?? 0;
  let sizes = inputs[1] ? toNumbers(inputs[1]) : attrs.ints('split');
  if (!sizes || sizes.length === 0) {
    const n = attrs.int('num_outputs', ctx.node.outputs.length);
    const part = Math.ceil(d / n);
    sizes = Array.from({ length: n }, (_, i) => Math.max(0, Math.min(part, d - i * part)));
  }
  return tf.split(x, [...sizes], axis);
};

const tile: OpHandler = (inputs) => [tf.tile(toTensor(req(inputs, 0)), [...toNumbers(req(inputs, 1))])];

/** Constant nodes are evaluated once at open by the executor; this handler is what it calls. */
const constant: OpHandler = (_inputs, attrs) => {
  const t = attrs.tensor('value');
  if (t) return [valueFromOnnxTensor(t)];
  if (attrs.has('value_float')) return [hostValue('float32', [], [Math.fround(attrs.float('value_float', 0))])];
  if (attrs.has('value_int')) return [hostValue('int32', [], [attrs.int('value_int', 0)])];
  const floats = attrs.has('value_floats') ? attrs.ints('value_floats') : undefined;
  if (floats) return [hostValue('float32', [floats.length], floats.map(Math.fround))];
  const ints = attrs.has('value_ints') ? attrs.ints('value_ints') : undefined;
  if (ints) return [hostValue('int32', [ints.length], ints)];
  throw new Error('Constant has no value tfjs can hold (sparse and string constants are not supported)');
};

/** Ops that move, reshape or create tensors; most also run on host values. */
export const TENSOR_OPS: Readonly<Record<string, OpHandler>> = {
  Constant: constant,
  ConstantOfShape: constantOfShape,
  Range: range,
  Shape: shape,
  Size: size,
  Reshape: reshape,
  Flatten: flatten,
  Unsqueeze: unsqueeze,
  Squeeze: squeeze,
  Transpose: transpose,
  Concat: concat,
  Slice: slice,
  Gather: gather,
  Expand: expand,
  Split: split,
  Tile: tile,
};
