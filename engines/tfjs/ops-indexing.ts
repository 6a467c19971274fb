import * as tf from '@tensorflow/tfjs-core';
import {
  dimsOf,
  hostMirrorOf,
  hostValue,
  isHost,
  normAxis,
  req,
  sizeOf,
  stridesOf,
  toNumbers,
  toTensor,
  type OpHandler,
} from './op-values.js';

/**
 * CumSum along one axis (RoBERTa, XLM-R and MPNet build position ids with it
 * from the attention mask). Host values are summed in JS so shape-only
 * subgraphs stay on the host.
 */
const cumSum: OpHandler = (inputs, attrs) => {
  const x = req(inputs, 0);
  const dims = dimsOf(x);
  const axis = normAxis(toNumbers(req(inputs, 1))[0] ?? 0, dims.length);
  const exclusive = attrs.int('exclusive', 0) === 1;
  const reverse = attrs.int('reverse', 0) === 1;
  if (!isHost(x)) return [tf.cumsum(x, axis, exclusive, reverse)];
  const strides = stridesOf(dims);
  const step = strides[axis] ?? 1;
  const len = dims[axis] ?? 1;
  const out = new Array<number>(x.data.length).fill(0);
  for (let base = 0; base < x.data.length; base++) {
    // Each line along `axis` starts where the axis coordinate is 0.
    if (Math.floor(base / step) % len !== 0) continue;
    let acc = 0;
    for (let k = 0; k < len; k++) {
      const i = base + (reverse ? len - 1 - k : k) * step;
      const v = x.data[i] ?? 0;
      if (!exclusive) acc += v;
      out[i] = x.dtype === 'float32' ? Math.fround(acc) : acc;
      if (exclusive) acc += v;
    }
  }
  return [hostValue(x.dtype, dims, out)];
};

/** Flat offsets into `dataDims` of every position of `idxDims`, leaving out the `axis` term (added from the indices). */
function offsetsWithoutAxis(dataDims: readonly number[], idxDims: readonly number[], axis: number): Int32Array {
  const dataStrides = stridesOf(dataDims);
  const n = sizeOf(idxDims);
  const out = new Int32Array(n);
  const coord = new Array<number>(idxDims.length).fill(0);
  for (let i = 0; i < n; i++) {
    let off = 0;
    for (let d = 0; d < idxDims.length; d++) if (d !== axis) off += (coord[d] ?? 0) * (dataStrides[d] ?? 0);
    out[i] = off;
    for (let d = idxDims.length - 1; d >= 0; d--) {
      coord[d] = (coord[d] ?? 0) + 1;
      if ((coord[d] ?? 0) < (idxDims[d] ?? 1)) break;
      coord[d] = 0;
    }
  }
  return out;
}

/**
 * GatherElements (torch.gather): output[i][j] = data[index[i][j]][j] along
 * `axis`. tfjs has no such kernel, so it becomes one flat gather with the
 * offsets of the other axes precomputed from the (concrete) shapes.
 */
const gatherElements: OpHandler = (inputs, attrs) => {
  const data = req(inputs, 0);
  const indices = req(inputs, 1);
  const dataDims = dimsOf(data);
  const idxDims = dimsOf(indices);
  const axis = normAxis(attrs.int('axis', 0), dataDims.length);
  const axisDim = dataDims[axis] ?? 0;
  const axisStride = stridesOf(dataDims)[axis] ?? 1;
  const base = offsetsWithoutAxis(dataDims, idxDims, axis);
  const known = isHost(indices) ? indices.data : hostMirrorOf(indices);
  if (known) {
    const flat = new Int32Array(base.length);
    for (let i = 0; i < base.length; i++) {
      const k = Number(known[i] ?? 0);
      if (k < -axisDim || k >= axisDim) throw new Error(`GatherElements index ${k} is out of range for an axis of size ${axisDim}`);
      flat[i] = (base[i] ?? 0) + (k < 0 ? k + axisDim : k) * axisStride;
    }
    if (isHost(data)) return [hostValue(data.dtype, idxDims, Array.from(flat, (f) => data.data[f] ?? 0))];
    return [tf.reshape(tf.gather(tf.reshape(data, [-1]), tf.tensor1d(flat, 'int32')), [...idxDims])];
  }
  const t = toTensor(indices);
  const idx = t.dtype === 'int32' ? t : tf.cast(t, 'int32');
  // A bare number would come in as float32 and turn the indices into floats.
  const wrapped = tf.where(tf.less(idx, tf.scalar(0, 'int32')), tf.add(idx, tf.scalar(axisDim, 'int32')), idx);
  const flat = tf.add(tf.tensor(base, [...idxDims], 'int32'), tf.mul(wrapped, tf.scalar(axisStride, 'int32')));
  return [tf.reshape(tf.gather(tf.reshape(toTensor(data), [-1]), tf.reshape(flat, [-1])), [...idxDims])];
};

/** ScatterND with reduction none/add/mul/max/min: the scattered updates replace or combine with `data` where indices point. */
const scatterNd: OpHandler = (inputs, attrs) => {
  const data = toTensor(req(inputs, 0));
  const indices = toTensor(req(inputs, 1));
  const updates = toTensor(req(inputs, 2));
  const idx = indices.dtype === 'int32' ? indices : tf.cast(indices, 'int32');
  const shape = [...data.shape];
  const reduction = attrs.string('reduction', 'none');
  const hit = tf.greater(tf.scatterND(idx, tf.onesLike(tf.cast(updates, 'int32')), shape), 0);
  const scattered = tf.scatterND(idx, updates, shape);
  let combined: tf.Tensor;
  switch (reduction) {
    case 'none': combined = scattered; break;
    case 'add': combined = tf.add(data, scattered); break;
    case 'mul': combined = tf.mul(data, tf.where(hit, scattered, tf.onesLike(data))); break;
    case 'max': combined = tf.maximum(data, scattered); break;
    case 'min': combined = tf.minimum(data, scattered); break;
    default: throw new Error(`ScatterND reduction '${reduction}' is not supported`);
  }
  return [tf.where(hit, combined, data)];
};

/** Trilu: keeps the upper (or lower) triangle of the last two axes from diagonal k; the mask is built on the host from the shape. */
const trilu: OpHandler = (inputs, attrs) => {
  const x = req(inputs, 0);
  const dims = dimsOf(x);
  const k = inputs[1] !== undefined ? (toNumbers(inputs[1])[0] ?? 0) : 0;
  const upper = attrs.int('upper', 1) === 1;
  const rows = dims[dims.length - 2] ?? 1;
  const cols = dims[dims.length - 1] ?? 1;
  const keep = (i: number, j: number): boolean => (upper ? j - i >= k : j - i <= k);
  if (isHost(x)) {
    const plane = rows * cols;
    return [hostValue(x.dtype, dims, x.data.map((v, f) => (keep(Math.floor((f % plane) / cols), f % cols) ? v : 0)))];
  }
  const mask = new Uint8Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) mask[i * cols + j] = keep(i, j) ? 1 : 0;
  return [tf.where(tf.tensor(mask, [rows, cols], 'bool'), x, tf.zerosLike(x))];
};

/** Gather, scatter, scan and mask ops that index by position. */
export const INDEXING_OPS: Readonly<Record<string, OpHandler>> = {
  CumSum: cumSum,
  GatherElements: gatherElements,
  ScatterND: scatterNd,
  Trilu: trilu,
};
