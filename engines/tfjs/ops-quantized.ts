import * as tf from '@tensorflow/tfjs-core';
import { matMulTensors } from './ops-nn.js';
import { hostValue, intToFloat32, normAxis, req, toNumbers, toTensor, type OpHandler, type Value } from './op-values.js';
import { type NodeAttributes } from '../../src/core/onnx/onnx-graph.js';
import { dequantizeNBits } from './nbits-dequantize.js';

/**
 * Quantized ONNX ops, computed so they give onnxruntime's CPU results bit for
 * bit where tfjs can: 8-bit values are held as int32 tensors (tfjs has no
 * uint8/int8), quantization divides by the scale in float32 and rounds half
 * to even (tfjs `round` is banker's rounding on cpu, wasm and node, like
 * MLAS's cvtps), and saturates to the target range. Integer matmuls run as
 * float32 matmuls over K chunks small enough that every partial sum is an
 * exact integer, summed in int32 (see `exactChunk`).
 */

/** Largest integer below which float32 holds every integer exactly. */
const FLOAT32_EXACT = 2 ** 24;

/** Integer range of each quantized type ONNX QuantizeLinear can produce here. */
const QUANT_RANGE: Readonly<Record<string, readonly [number, number]>> = {
  uint8: [0, 255],
  int8: [-128, 127],
  uint16: [0, 65535],
  int16: [-32768, 32767],
};

/** ONNX TensorProto codes of the QuantizeLinear output types, for opset 21's `output_dtype`. */
const QUANT_TYPE_BY_CODE: Readonly<Record<number, string>> = { 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16' };

/**
 * Attribute the open-time pass (prepareQuantizedNodes) sets on QuantizeLinear
 * nodes: the ONNX type of the zero point, which decides the output range but
 * is lost once 8-bit values are held as int32.
 */
export const ZERO_POINT_TYPE_ATTR = 'inferbench_zero_point_type';

/**
 * K per chunk so a float32 matmul of integers bounded by `maxA` and `maxB`
 * is exact: each partial sum stays ≤ 2^24 whatever order the kernel adds in
 * (FMA included). 255·255 gives 258; typical int8 weights (|b − zb| ≤ 128) 514.
 */
export function exactChunk(maxA: number, maxB: number): number {
  return Math.max(1, Math.floor(FLOAT32_EXACT / Math.max(1, maxA * maxB)));
}

/** Splits K into equal chunks of at most `limit`, so two chunks of 384 are used rather than 514 + 254. */
export function chunkSizes(k: number, limit: number): number[] {
  const count = Math.max(1, Math.ceil(k / limit));
  const size = Math.ceil(k / count);
  const sizes: number[] = [];
  for (let start = 0; start < k; start += size) sizes.push(Math.min(size, k - start));
  return sizes;
}

/**
 * `scale` (and a zero point) shaped to broadcast against a rank-`rank` tensor:
 * scalars stay, 1-D per-axis values become [1, …, C, …, 1], and blocked
 * values (opset 21 block_size) are repeated block_size times along the axis.
 */
function alongAxis(t: tf.Tensor, x: tf.Tensor, rawAxis: number, blockSize: number): tf.Tensor {
  if (t.size === 1 && blockSize <= 0) return t.rank === 0 ? t : tf.reshape(t, []);
  // The axis is only checked when it is used: per-tensor quantization of a 1-D x keeps the default axis 1.
  const rank = x.rank;
  const axis = normAxis(rawAxis, rank);
  const length = x.shape[axis] ?? 1;
  if (blockSize > 0) {
    const index = Int32Array.from({ length }, (_, i) => Math.floor(i / blockSize));
    return tf.gather(t, tf.tensor1d(index, 'int32'), axis);
  }
  if (t.rank !== 1) throw new Error(`per-axis scale must be 1-D, got rank ${t.rank}`);
  const shape = new Array<number>(rank).fill(1);
  shape[axis] = t.size;
  return tf.reshape(t, shape);
}

/**
 * `x − zp` of 8-bit operands as float32, subtracted in float32: exact (both
 * are integers below 2^16), and tfjs-wasm runs a broadcasting float32 sub in
 * XNNPACK but an int32 one through a generic loop about 100× slower.
 */
function centeredOperand(x: tf.Tensor, zp: tf.Tensor | undefined): tf.Tensor {
  const xf = x.dtype === 'float32' ? x : tf.cast(x, 'float32');
  return zp === undefined ? xf : tf.sub(xf, zp.dtype === 'float32' ? zp : tf.cast(zp, 'float32'));
}

/** The float32 tensor `x − zp`, the difference taken in int32 so an int32 bias far above 2^24 rounds once, as ORT's static_cast<float> does. */
function centered(x: tf.Tensor, zp: tf.Tensor | undefined): tf.Tensor {
  const xi = x.dtype === 'int32' ? x : tf.cast(x, 'int32');
  return intToFloat32(zp === undefined ? xi : tf.sub(xi, zp.dtype === 'int32' ? zp : tf.cast(zp, 'int32')));
}

/** Round half to even on a JS number, as MLAS's cvtps and tfjs `round` do. */
function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/**
 * DynamicQuantizeLinear (uint8), as ORT's GetQuantizationParameter and MLAS
 * compute it: the range is widened to include 0, scale = (max − min) / 255
 * (1 when the range is empty), zero point = round(saturate(−min / scale)),
 * y = saturate(round(x / scale) + zp). Min and max are read back (one small
 * copy) so scale and zero point are worked out on the host, in float32
 * (Math.fround after each step: double then float rounding is exact for one
 * +, −, × or ÷ of float32 values), instead of a dozen scalar kernel
 * dispatches; they leave as host scalars.
 */
function dynamicQuantParams(x: tf.Tensor): { scale: number; zp: number } {
  const [min = 0, max = 0] = tf.stack([tf.min(x), tf.max(x)]).dataSync() as Float32Array;
  const lo = Math.min(min, 0);
  const hi = Math.max(max, 0);
  const scale = hi === lo ? 1 : Math.fround(Math.fround(hi - lo) / 255);
  return { scale, zp: roundHalfEven(Math.max(0, Math.min(255, Math.fround(-lo / scale)))) };
}

const dynamicQuantizeLinear: OpHandler = (inputs) => {
  const x = toTensor(req(inputs, 0));
  const { scale, zp } = dynamicQuantParams(x);
  const y = tf.clipByValue(tf.add(tf.round(tf.div(x, tf.scalar(scale, 'float32'))), tf.scalar(zp, 'float32')), 0, 255);
  return [tf.cast(y, 'int32'), hostValue('float32', [], [scale]), hostValue('int32', [], [zp])];
};

/**
 * DynamicQuantizeLinear whose quantized output only feeds prepared integer
 * matmuls that subtract its own zero point (see centerDynamicQuantization):
 * it hands them y − zp = clip(round(x / scale), −zp, 255 − zp) directly, as
 * float32, which is the same integer without the add, subtract and two casts.
 */
const dynamicQuantizeCentered: OpHandler = (inputs) => {
  const x = toTensor(req(inputs, 0));
  const { scale, zp } = dynamicQuantParams(x);
  const centeredY = tf.clipByValue(tf.round(tf.div(x, tf.scalar(scale, 'float32'))), -zp, 255 - zp);
  return [centeredY, hostValue('float32', [], [scale]), hostValue('int32', [], [zp])];
};

/** The ONNX type QuantizeLinear writes: its zero point's, else opset 21's output_dtype, else uint8 (the spec default). */
function quantizedType(attrs: NodeAttributes): string {
  const fromZeroPoint = attrs.string(ZERO_POINT_TYPE_ATTR, '');
  if (fromZeroPoint) return fromZeroPoint;
  const code = attrs.int('output_dtype', 0);
  return code === 0 ? 'uint8' : (QUANT_TYPE_BY_CODE[code] ?? `type code ${code}`);
}

/** QuantizeLinear, per tensor, per axis (opset 13) or per block (opset 21): saturate(round_half_even(x / scale) + zp). */
const quantizeLinear: OpHandler = (inputs, attrs) => {
  const x = toTensor(req(inputs, 0));
  const type = quantizedType(attrs);
  const bounds = QUANT_RANGE[type];
  if (!bounds) throw new Error(`QuantizeLinear to ${type} is not supported by the tfjs translation`);
  const axis = attrs.int('axis', 1);
  const block = attrs.int('block_size', 0);
  const scale = alongAxis(toTensor(req(inputs, 1)), x, axis, block);
  let q = tf.round(tf.div(x, scale));
  if (inputs[2] !== undefined) q = tf.add(q, tf.cast(alongAxis(toTensor(inputs[2]), x, axis, block), 'float32'));
  return [tf.cast(tf.clipByValue(q, bounds[0], bounds[1]), 'int32')];
};

/** DequantizeLinear: (x − zp) · scale, the difference taken in int32 (exact, also for int32 biases) and the product in float32, as ORT does. */
const dequantizeLinear: OpHandler = (inputs, attrs) => {
  const x = toTensor(req(inputs, 0));
  const axis = attrs.int('axis', 1);
  const block = attrs.int('block_size', 0);
  const shape = (v: Value): tf.Tensor => alongAxis(toTensor(v), x, axis, block);
  const zp = inputs[2] !== undefined ? shape(inputs[2]) : undefined;
  return [tf.mul(centered(x, zp), shape(req(inputs, 1)))];
};

/** A per-row zero point of a 2-D-or-more A ([M]) must broadcast over K: it becomes [M, 1]. */
function rowZeroPoint(zp: tf.Tensor, aRank: number): tf.Tensor {
  return zp.rank === 1 && zp.size > 1 && aRank >= 2 ? tf.reshape(zp, [zp.size, 1]) : zp;
}

/**
 * Σ_k a[.., k] · b[k, ..] of exact-integer float32 tensors: the K axis is
 * cut into chunks whose float32 matmuls cannot round (`bChunks` are B's
 * matching row blocks). As int32, chunk results are cast and added in int32.
 * As float32 (`asFloat`, for MatMulInteger → Cast to float) the result must
 * equal that int32 sum cast to float32: one chunk is exact already, and two
 * exact chunk results added in float32 round once, to nearest even, exactly
 * as the int32 → float32 cast would; from three chunks on, the int32 sum is
 * made first.
 */
export function chunkedIntegerMatMul(a: tf.Tensor, bChunks: readonly tf.Tensor[], asFloat = false): tf.Tensor {
  const floatSum = asFloat && bChunks.length <= 2;
  if (bChunks.length === 1) {
    const y = matMulTensors(a, bChunks[0] as tf.Tensor);
    return floatSum ? y : tf.cast(y, 'int32');
  }
  let sum: tf.Tensor | undefined;
  let start = 0;
  const begin = new Array<number>(a.rank).fill(0);
  const size = new Array<number>(a.rank).fill(-1);
  for (const b of bChunks) {
    const rows = b.rank === 1 ? (b.shape[0] ?? 0) : (b.shape[b.rank - 2] ?? 0);
    begin[a.rank - 1] = start;
    size[a.rank - 1] = rows;
    const y = matMulTensors(tf.slice(a, begin, size), b);
    const part = floatSum ? y : tf.cast(y, 'int32');
    sum = sum === undefined ? part : tf.add(sum, part);
    start += rows;
  }
  return asFloat && !floatSum ? intToFloat32(sum as tf.Tensor) : (sum as tf.Tensor);
}

/** B's K axis (rows of its last two dims) cut into chunks of the given sizes. */
function splitRows(b: tf.Tensor, sizes: readonly number[]): tf.Tensor[] {
  if (sizes.length === 1) return [b];
  return tf.split(b, [...sizes], Math.max(0, b.rank - 2));
}

/**
 * MatMulInteger with any operands: (A − za) · (B − zb) accumulated exactly in
 * int32. Operands are 8-bit, so |A − za|, |B − zb| ≤ 255 and chunks of 258
 * are always exact; constant weights get a tighter bound at open (see
 * prepareQuantizedNodes, which replaces this with MatMulIntegerPrepared).
 */
const matMulInteger: OpHandler = (inputs) => {
  const a0 = toTensor(req(inputs, 0));
  const a = centeredOperand(a0, inputs[2] !== undefined ? rowZeroPoint(toTensor(inputs[2]), a0.rank) : undefined);
  const b = centeredOperand(toTensor(req(inputs, 1)), inputs[3] !== undefined ? toTensor(inputs[3]) : undefined);
  const k = a.shape[a.rank - 1] ?? 1;
  return [chunkedIntegerMatMul(a, splitRows(b, chunkSizes(k, exactChunk(255, 255))))];
};

/**
 * MatMulInteger whose B was centred and split at load: inputs are
 * [A, a_zero_point or '', scale or '', B chunk 0, B chunk 1, …], each chunk a
 * float32 constant holding B − zb for its rows of K. With a scale (the
 * Cast-to-float → Mul that quantize_dynamic writes after MatMulInteger,
 * folded in at open) the output is float32(Σ) · scale, as those two ops give.
 */
const matMulIntegerPrepared: OpHandler = (inputs) => {
  const a0 = toTensor(req(inputs, 0));
  const a = centeredOperand(a0, inputs[1] !== undefined ? rowZeroPoint(toTensor(inputs[1]), a0.rank) : undefined);
  const chunks = inputs.slice(3).map((v) => toTensor(v as Value));
  if (inputs[2] === undefined) return [chunkedIntegerMatMul(a, chunks)];
  return [tf.mul(chunkedIntegerMatMul(a, chunks, true), toTensor(inputs[2]))];
};

/**
 * com.microsoft MatMulNBits whose weight is not a constant (the open-time
 * pass turns constant ones into a plain MatMul by a dequantized weight):
 * the weight is read back and dequantized on the host each run.
 */
const matMulNBits: OpHandler = (inputs, attrs) => {
  const a = toTensor(req(inputs, 0));
  const k = attrs.int('K', 0);
  const n = attrs.int('N', 0);
  const w = dequantizeNBits({
    packed: toNumbers(req(inputs, 1)),
    scales: toNumbers(req(inputs, 2)),
    zeroPoints: inputs[3] !== undefined ? toNumbers(inputs[3]) : undefined,
    k,
    n,
    bits: attrs.int('bits', 4),
    blockSize: attrs.int('block_size', 0),
  });
  const y = matMulTensors(a, tf.tensor2d(w, [k, n], 'float32'));
  return [inputs[5] !== undefined ? tf.add(y, toTensor(inputs[5])) : y];
};

/** QuantizeLinear then DequantizeLinear with one per-tensor scale: clip(round(x / s), qmin − zp, qmax − zp) · s (see fakeQuantPairs). */
const quantizeDequantize: OpHandler = (inputs, attrs) => {
  const x = toTensor(req(inputs, 0));
  const scale = toTensor(req(inputs, 1));
  const s = scale.rank === 0 ? scale : tf.reshape(scale, []);
  return [tf.mul(tf.clipByValue(tf.round(tf.div(x, s)), attrs.int('lo', 0), attrs.int('hi', 255)), s)];
};

/** Quantized ops of the default ONNX domain. */
export const QUANTIZED_OP_HANDLERS: Readonly<Record<string, OpHandler>> = {
  DynamicQuantizeLinear: dynamicQuantizeLinear,
  QuantizeLinear: quantizeLinear,
  DequantizeLinear: dequantizeLinear,
  MatMulInteger: matMulInteger,
};

/** Ops of the com.microsoft domain the translator runs. */
export const MICROSOFT_OPS: ReadonlyMap<string, OpHandler> = new Map([['MatMulNBits', matMulNBits]]);

/** Handlers of the nodes prepareQuantizedNodes creates (fused domain). */
export const PREPARED_QUANTIZED_OPS: ReadonlyMap<string, OpHandler> = new Map([
  ['MatMulIntegerPrepared', matMulIntegerPrepared],
  ['QuantizeDequantize', quantizeDequantize],
  ['DynamicQuantizeCentered', dynamicQuantizeCentered],
]);
