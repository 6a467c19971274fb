/**
 * The arithmetic of 8-bit linear quantization exactly as onnxruntime's
 * Python tools do it (`quant_utils.compute_scale_zp`, `quantize_nparray`),
 * so a weight inferbench quantizes holds the same bytes as
 * `quantize_dynamic`'s and the two models give the same logits:
 *
 * - the range always includes 0; symmetric int8 uses ±127, asymmetric uint8 0..255;
 * - the scale is computed in float64 and stored as float32; the zero point
 *   uses the float64 scale, the values the float32 one;
 * - values are divided in float32 and rounded half to even, as numpy rounds.
 *
 * Everything works on typed arrays in place: a 440 MB model is 110 M values,
 * and per-element objects would cost more than the arithmetic.
 */

/** 8-bit weight encodings: signed symmetric (zero point 0) or unsigned asymmetric. */
export type Int8Kind = 'int8' | 'uint8';

/** Quantization parameters of one tensor or one channel. */
export interface QuantParams {
  /** Stored (float32) scale. */
  readonly scale: number;
  readonly zeroPoint: number;
}

const FLOAT32_TINY = 1.1754943508222875e-38;

/** numpy.round: half to even. */
export function roundHalfEven(v: number): number {
  const r = Math.round(v);
  return r - v === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** compute_scale_zp for a range [rmin, rmax] (float32 values). */
export function quantParams(rmin: number, rmax: number, kind: Int8Kind, reduceRange = false): QuantParams & { scale64: number } {
  let lo = Math.min(Math.fround(rmin), 0);
  let hi = Math.max(Math.fround(rmax), 0);
  const symmetric = kind === 'int8';
  const [qmin, qmax] = reduceRange ? (symmetric ? [-64, 64] : [0, 127]) : symmetric ? [-127, 127] : [0, 255];
  if (symmetric) {
    const absmax = Math.max(Math.abs(lo), Math.abs(hi));
    lo = -absmax;
    hi = absmax;
  }
  // numpy subtracts in float32, then widens to float64 for the division.
  const scale64 = Math.fround(hi - lo) / (qmax - qmin);
  if (scale64 < FLOAT32_TINY) return { scale: 1, scale64: 1, zeroPoint: 0 };
  const zeroPoint = symmetric ? roundHalfEven((qmin + qmax) / 2) : roundHalfEven(qmin - lo / scale64);
  return { scale: Math.fround(scale64), scale64, zeroPoint };
}

/** Quantizes `values[from..to)` with stride `step` into `out` (same indices), as quantize_nparray. */
function quantizeRun(values: Float32Array, out: Int8Array | Uint8Array, p: QuantParams, kind: Int8Kind, from: number, to: number, step: number): void {
  const lo = kind === 'int8' ? -128 : 0;
  const hi = kind === 'int8' ? 127 : 255;
  const scale = p.scale;
  const zp = p.zeroPoint;
  for (let i = from; i < to; i += step) {
    const q = roundHalfEven(Math.fround((values[i] as number) / scale)) + zp;
    out[i] = q < lo ? lo : q > hi ? hi : q;
  }
}

/** Per-tensor quantization of `values`: one scale and zero point over all of them. */
export function quantizeTensor(values: Float32Array, kind: Int8Kind, reduceRange = false): { q: Int8Array | Uint8Array; params: QuantParams } {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (values.length === 0) {
    min = 0;
    max = 0;
  }
  const params = quantParams(min, max, kind, reduceRange);
  const q = kind === 'int8' ? new Int8Array(values.length) : new Uint8Array(values.length);
  quantizeRun(values, q, params, kind, 0, values.length, 1);
  return { q, params };
}

/**
 * Per-column quantization of a row-major [rows, cols] matrix (onnxruntime's
 * per-channel along the last axis, what MatMulInteger and MatMul's QDQ use):
 * one scale and zero point per column.
 */
export function quantizeColumns(values: Float32Array, rows: number, cols: number, kind: Int8Kind, reduceRange = false): { q: Int8Array | Uint8Array; scales: Float32Array; zeroPoints: Int32Array } {
  const min = new Float32Array(cols).fill(Infinity);
  const max = new Float32Array(cols).fill(-Infinity);
  for (let r = 0; r < rows; r++) {
    const base = r * cols;
    for (let c = 0; c < cols; c++) {
      const v = values[base + c] as number;
      if (v < (min[c] as number)) min[c] = v;
      if (v > (max[c] as number)) max[c] = v;
    }
  }
  const scales = new Float32Array(cols);
  const zeroPoints = new Int32Array(cols);
  const lo = kind === 'int8' ? -128 : 0;
  const hi = kind === 'int8' ? 127 : 255;
  for (let c = 0; c < cols; c++) {
    const p = rows === 0 ? quantParams(0, 0, kind, reduceRange) : quantParams(min[c] as number, max[c] as number, kind, reduceRange);
    scales[c] = p.scale;
    zeroPoints[c] = p.zeroPoint;
  }
  const q = kind === 'int8' ? new Int8Array(rows * cols) : new Uint8Array(rows * cols);
  for (let r = 0; r < rows; r++) {
    const base = r * cols;
    for (let c = 0; c < cols; c++) {
      const v = roundHalfEven(Math.fround((values[base + c] as number) / (scales[c] as number))) + (zeroPoints[c] as number);
      q[base + c] = v < lo ? lo : v > hi ? hi : v;
    }
  }
  return { q, scales, zeroPoints };
}

/** Zero points as bytes of the weight's type. */
export function zeroPointBytes(zeroPoints: Int32Array, kind: Int8Kind): Uint8Array {
  return kind === 'int8' ? new Uint8Array(Int8Array.from(zeroPoints).buffer) : Uint8Array.from(zeroPoints);
}
