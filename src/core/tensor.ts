/**
 * Engine-neutral tensors. Model inputs are built once per batch in this form
 * and every engine converts them itself, so the conversion is charged to the
 * engine that needs it and all engines see byte-identical inputs.
 */
export type HostDType = 'float32' | 'int64' | 'int32' | 'bool';

/** Typed array backing each dtype; bool is stored one byte per element as ONNX does. */
export interface HostDataMap {
  float32: Float32Array;
  int64: BigInt64Array;
  int32: Int32Array;
  bool: Uint8Array;
}

/** A dense row-major tensor held in host memory. */
export interface HostTensor<D extends HostDType = HostDType> {
  readonly dtype: D;
  readonly dims: readonly number[];
  readonly data: HostDataMap[D];
}

/** Named tensors, keyed by graph input or output name. */
export type TensorMap = Record<string, HostTensor>;

/** Element count implied by `dims`; a scalar (no dims) has one element. */
export function elementCount(dims: readonly number[]): number {
  let n = 1;
  for (const d of dims) n *= d;
  return n;
}

/** Builds a HostTensor and checks that data length matches dims, which engines would otherwise report cryptically. */
export function hostTensor<D extends HostDType>(dtype: D, dims: readonly number[], data: HostDataMap[D]): HostTensor<D> {
  const expected = elementCount(dims);
  if (data.length !== expected) {
    throw new RangeError(`tensor data has ${data.length} elements but dims [${dims.join(', ')}] need ${expected}`);
  }
  return { dtype, dims: [...dims], data };
}

/** Converts any numeric tensor to float64 numbers, for parity checks and argmax. */
export function toNumbers(t: HostTensor): number[] {
  const out: number[] = new Array(t.data.length);
  for (let i = 0; i < t.data.length; i++) out[i] = Number(t.data[i]);
  return out;
}

/** The value of IEEE-754 half-precision bits, for reading fp16 tensors and initializers in fp32. */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 0x1f) return frac ? NaN : sign * Infinity;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}
