import * as tf from '@tensorflow/tfjs-core';
import type { OnnxDType, OnnxNode, OnnxTensor } from '../../src/core/onnx/onnx-decode.js';
import type { NodeAttributes } from '../../src/core/onnx/onnx-graph.js';

/** The only dtypes tfjs computes in; every ONNX dtype is mapped onto one of them. */
export type TfDType = 'float32' | 'int32' | 'bool';

/**
 * A small tensor kept in host memory as plain numbers. Shape arithmetic
 * (Shape → Gather → Unsqueeze → Concat → Reshape) stays here, so a Reshape
 * never waits for a device read-back, and int64 values outside the int32
 * range (Slice's INT64_MAX ends) survive until something really needs them
 * as a tfjs tensor.
 */
export interface HostValue {
  readonly kind: 'host';
  readonly dtype: TfDType;
  readonly dims: readonly number[];
  readonly data: readonly number[];
  /** ONNX value name, set by the executor when stored, so range errors can name the tensor. */
  name?: string;
  /** Tensor form of a constant, made once at open and kept across runs; disposed with the session. */
  cached?: tf.Tensor;
}

/** What flows along a graph edge during a run. */
export type Value = tf.Tensor | HostValue;

/** Largest host value ops produce; above it, device tensors are cheaper than JS number arrays. */
export const HOST_MAX_ELEMENTS = 4096;

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/** True for host values; tf.Tensor instances have no `kind`. */
export function isHost(v: Value): v is HostValue {
  return (v as HostValue).kind === 'host';
}

/** A fresh host value; handlers build results with it so dims are always copied, never shared. */
export function hostValue(dtype: TfDType, dims: readonly number[], data: readonly number[]): HostValue {
  return { kind: 'host', dtype, dims: [...dims], data };
}

/** Dims of either representation, so shape logic need not care where a value lives. */
export function dimsOf(v: Value): readonly number[] {
  return isHost(v) ? v.dims : v.shape;
}

/** The tfjs dtype of either representation. */
export function dtypeOf(v: Value): TfDType {
  return isHost(v) ? v.dtype : (v.dtype as TfDType);
}

/** Element count of `dims` (1 for a scalar), as ONNX and tfjs both define it. */
export function sizeOf(dims: readonly number[]): number {
  let n = 1;
  for (const d of dims) n *= d;
  return n;
}

/** How an ONNX dtype is held in tfjs; null when tfjs cannot hold it at all. */
export function tfDTypeFor(dtype: OnnxDType): TfDType | null {
  switch (dtype) {
    case 'float32': case 'float16': case 'bfloat16': case 'float64': return 'float32';
    case 'int8': case 'uint8': case 'int16': case 'uint16': case 'int32': case 'uint32': case 'int64': case 'uint64': return 'int32';
    case 'bool': return 'bool';
    default: return null;
  }
}

/** Throws the error the brief promises for int64 data tfjs cannot hold: it names the tensor and the offending value. */
export function checkInt32(value: number | bigint, index: number, tensorName: string): number {
  const n = Number(value);
  if (!(n >= INT32_MIN && n <= INT32_MAX)) {
    throw new RangeError(
      `tensor '${tensorName}' holds the int64 value ${String(value)} at index ${index}, outside the int32 range tfjs computes in`,
    );
  }
  return n;
}

/** Host data a device tensor was made from, when the translator kept it. */
export type HostMirror = Float32Array | Int32Array;

/**
 * Host copies of some device tensors: int feeds (converted on the host
 * anyway) and embedding tables. Gather on token ids then runs as row copies in
 * JS, which beats tfjs-wasm's gather kernel by far (about 16 ms → under 1 ms
 * for a 32×64 batch) and needs no device read-back of the indices.
 */
const hostMirrors = new WeakMap<tf.Tensor, HostMirror>();

/** Records the host data a tensor was made from; returns the tensor for chaining. */
export function mirrorOnHost<T extends tf.Tensor>(t: T, data: HostMirror): T {
  hostMirrors.set(t, data);
  return t;
}

/** The recorded host data of a device tensor, if any; never triggers a read-back. */
export function hostMirrorOf(v: Value): HostMirror | undefined {
  return isHost(v) ? undefined : hostMirrors.get(v);
}

/** Int64 host data as int32, checked element by element. */
export function int64ToInt32(data: BigInt64Array, tensorName: string): Int32Array {
  const out = new Int32Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = checkInt32(data[i] ?? 0n, i, tensorName);
  return out;
}

/** A host value as a tfjs tensor; constants reuse the tensor made at open. */
export function toTensor(v: Value): tf.Tensor {
  if (!isHost(v)) return v;
  if (v.cached) return v.cached;
  if (v.dtype === 'int32') {
    const data = new Int32Array(v.data.length);
    for (let i = 0; i < v.data.length; i++) data[i] = checkInt32(v.data[i] ?? 0, i, v.name ?? 'unnamed');
    return tf.tensor(data, [...v.dims], 'int32');
  }
  return tf.tensor(v.dtype === 'bool' ? Uint8Array.from(v.data) : Float32Array.from(v.data), [...v.dims], v.dtype);
}

/** Reads a value as host numbers; a device tensor here costs a synchronous read-back, so ops only do it for data-dependent shapes. */
export function toNumbers(v: Value): readonly number[] {
  return isHost(v) ? v.data : Array.from(v.dataSync() as ArrayLike<number>);
}

/** Decoded ONNX tensor (an initializer or a Constant) as a value: small ones on the host, large ones as tensors. */
export function valueFromOnnxTensor(t: OnnxTensor): Value {
  const dtype = tfDTypeFor(t.dtype);
  if (!dtype) throw new Error(`tensor '${t.name}' has dtype ${t.dtype}, which tfjs cannot hold`);
  const count = t.data.length;
  if (dtype !== 'float32' && count <= HOST_MAX_ELEMENTS) {
    const data = Array.from(t.data as ArrayLike<number | bigint>, Number);
    const v: HostValue = { kind: 'host', dtype, dims: [...t.dims], data, name: t.name };
    return v;
  }
  if (dtype === 'float32' && count === 1) {
    return { kind: 'host', dtype, dims: [...t.dims], data: [Number(t.data[0])], name: t.name };
  }
  if (t.data instanceof BigInt64Array) return tf.tensor(int64ToInt32(t.data, t.name), [...t.dims], 'int32');
  if (dtype === 'float32') return tf.tensor(t.data instanceof Float32Array ? t.data : Float32Array.from(t.data as ArrayLike<number>), [...t.dims], 'float32');
  if (dtype === 'bool') return tf.tensor(Uint8Array.from(t.data as ArrayLike<number>), [...t.dims], 'bool');
  return tf.tensor(Int32Array.from(t.data as ArrayLike<number>), [...t.dims], 'int32');
}

/** Row-major strides of `dims`. */
export function stridesOf(dims: readonly number[]): number[] {
  const s = new Array<number>(dims.length).fill(1);
  for (let i = dims.length - 2; i >= 0; i--) s[i] = (s[i + 1] ?? 1) * (dims[i + 1] ?? 1);
  return s;
}

/**
 * Builds host data of shape `outDims` by asking `source` for the flat source
 * index of each output coordinate. Every host movement op (Transpose, Slice,
 * Gather, Expand) reduces to this, which keeps them short and alike.
 */
export function hostRemap(src: HostValue, outDims: readonly number[], source: (coord: readonly number[]) => number): HostValue {
  const n = sizeOf(outDims);
  const out = new Array<number>(n);
  const coord = new Array<number>(outDims.length).fill(0);
  for (let i = 0; i < n; i++) {
    out[i] = src.data[source(coord)] ?? 0;
    for (let d = outDims.length - 1; d >= 0; d--) {
      coord[d] = (coord[d] ?? 0) + 1;
      if ((coord[d] ?? 0) < (outDims[d] ?? 1)) break;
      coord[d] = 0;
    }
  }
  return hostValue(src.dtype, outDims, out);
}

/** Numpy broadcast of two shapes; throws on incompatible shapes like ONNX does. */
export function broadcastDims(a: readonly number[], b: readonly number[]): number[] {
  const rank = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < rank; i++) {
    const x = a[a.length - rank + i] ?? 1;
    const y = b[b.length - rank + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) throw new Error(`shapes [${a.join(',')}] and [${b.join(',')}] do not broadcast`);
    out.push(x === 1 ? y : x);
  }
  return out;
}

/** Element-wise op over broadcast host values; float32 results are rounded to float32 so host and device agree bit for bit. */
export function hostElementwise(args: readonly HostValue[], dtype: TfDType, fn: (...xs: number[]) => number): HostValue {
  const outDims = args.reduce<number[]>((acc, a) => broadcastDims(acc, a.dims), []);
  const n = sizeOf(outDims);
  const outStrides = stridesOf(outDims);
  const argStrides = args.map((a) => {
    const s = stridesOf(a.dims);
    const off = outDims.length - a.dims.length;
    return outDims.map((_, d) => (d < off || a.dims[d - off] === 1 ? 0 : (s[d - off] ?? 0)));
  });
  const out = new Array<number>(n);
  const xs = new Array<number>(args.length);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < args.length; k++) {
      let idx = 0;
      let rest = i;
      const st = argStrides[k] ?? [];
      for (let d = 0; d < outDims.length; d++) {
        const os = outStrides[d] ?? 1;
        const c = Math.floor(rest / os);
        rest -= c * os;
        idx += c * (st[d] ?? 0);
      }
      xs[k] = args[k]?.data[idx] ?? 0;
    }
    const r = fn(...xs);
    out[i] = dtype === 'float32' ? Math.fround(r) : dtype === 'bool' ? (r ? 1 : 0) : Math.trunc(r);
  }
  return hostValue(dtype, outDims, out);
}

/**
 * `x` broadcast to `dims`. tfjs-wasm broadcasts float32 in its XNNPACK
 * binary kernels at full speed but runs broadcastTo/Tile, and every int32 or
 * bool broadcast, through a generic path about 100× slower (40 ms for a
 * 32×1×57×57 attention mask). So floats are broadcast by adding zeros, and
 * bools go through float 0/1 and back, both exact; int32 keeps broadcastTo
 * (floats would round ids above 2^24).
 */
export function broadcastTensor(x: tf.Tensor, dims: readonly number[]): tf.Tensor {
  if (x.shape.length === dims.length && x.shape.every((d, i) => d === dims[i])) return x;
  if (x.dtype === 'float32') return tf.add(x, tf.zeros([...dims], 'float32'));
  if (x.dtype === 'bool') return tf.notEqual(tf.add(tf.cast(x, 'float32'), tf.zeros([...dims], 'float32')), tf.scalar(0, 'float32'));
  return tf.broadcastTo(x, [...dims]);
}

/**
 * int32 → float32 rounded to float32 on every backend, as ONNX Cast and C's
 * (float) conversion do. tfjs-cpu's Cast sees no "encoding loss" from int32
 * to float32 and keeps the int32 data, so a value above 2^24 would reach the
 * next op unrounded (and a following Mul would round once where onnxruntime
 * rounds twice); adding 0 stores it in a Float32Array.
 */
export function intToFloat32(x: tf.Tensor): tf.Tensor {
  const y = tf.cast(x, 'float32');
  return x.dtype === 'int32' && tf.getBackend() === 'cpu' ? tf.add(y, tf.scalar(0, 'float32')) : y;
}

/** Normalises a possibly negative axis against `rank`, with the error ONNX checkers give. */
export function normAxis(axis: number, rank: number): number {
  const a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= Math.max(rank, 1)) throw new Error(`axis ${axis} is out of range for rank ${rank}`);
  return a;
}

/** What a handler may know besides its inputs and attributes. */
export interface OpContext {
  readonly node: OnnxNode;
  /** Default-domain opset of the model; several ops moved attributes to inputs across versions. */
  readonly opset: number;
  /**
   * A float32 scalar tensor the executor keeps across runs, for constants a
   * handler adds in (LayerNorm's epsilon, GELU's 0.5 and 1/√2). A bare
   * number makes tfjs create and, on tfjs-webgpu, upload a fresh scalar on
   * every call: 5 uploads per BERT layer per forward. Absent in training,
   * where numbers are used as before.
   */
  readonly scalar?: (value: number) => tf.Tensor;
}

/**
 * One ONNX op in tfjs terms. Inputs omitted in the graph are undefined;
 * handlers run inside the executor's tf.tidy, so intermediates need no disposal.
 */
export type OpHandler = (inputs: readonly (Value | undefined)[], attrs: NodeAttributes, ctx: OpContext) => Value[];

/** A required input, with an error that says which one is missing. */
export function req(inputs: readonly (Value | undefined)[], index: number): Value {
  const v = inputs[index];
  if (v === undefined) throw new Error(`input ${index} is required but missing`);
  return v;
}

/** True when every given input is a host value, i.e. the op can run on the host. */
export function allHost(values: readonly Value[]): values is readonly HostValue[] {
  return values.every(isHost);
}
