/** Packed N-bit weight of com.microsoft MatMulNBits, as host numbers. */
export interface NBitsWeight {
  /** B: [N, blocks, blockSize·bits/8] bytes, elements packed from the low bits up. */
  readonly packed: ArrayLike<number>;
  /** One float scale per (column, block): [N·blocks] or [N, blocks]. */
  readonly scales: ArrayLike<number>;
  /** Optional uint8 zero points, packed like B, ceil(blocks·bits/8) bytes per column; default 2^(bits−1). */
  readonly zeroPoints: ArrayLike<number> | undefined;
  readonly k: number;
  readonly n: number;
  readonly bits: number;
  readonly blockSize: number;
}

/**
 * The [K, N] float32 weight MatMulNBits multiplies by: w = (q − zp) · scale
 * per block, as ORT's fp32 path (accuracy_level 0) dequantizes it. The
 * difference is an exact small integer and the product one float32 rounding,
 * so only ORT's accumulation order (blocked SGEMM) can differ from tfjs's.
 */
export function dequantizeNBits(w: NBitsWeight): Float32Array {
  const { k, n, bits, blockSize } = w;
  if (bits !== 2 && bits !== 4 && bits !== 8) throw new Error(`MatMulNBits with bits=${bits} is not supported by the tfjs translation`);
  if (!(blockSize >= 16) || (blockSize & (blockSize - 1)) !== 0) throw new Error(`MatMulNBits block_size ${blockSize} is not a power of two ≥ 16`);
  const blocks = Math.ceil(k / blockSize);
  const blob = (blockSize * bits) / 8;
  const perByte = 8 / bits;
  const mask = (1 << bits) - 1;
  const zpRow = Math.ceil((blocks * bits) / 8);
  const defaultZp = 1 << (bits - 1);
  if (w.packed.length !== n * blocks * blob) throw new Error(`MatMulNBits B has ${w.packed.length} bytes, K=${k} N=${n} bits=${bits} block_size=${blockSize} need ${n * blocks * blob}`);
  if (w.scales.length !== n * blocks) throw new Error(`MatMulNBits scales has ${w.scales.length} values, ${n * blocks} expected`);
  if (w.zeroPoints !== undefined && w.zeroPoints.length !== n * zpRow) {
    throw new Error(`MatMulNBits zero_points has ${w.zeroPoints.length} values; only packed uint8 zero points (${n * zpRow}) are supported`);
  }
  const out = new Float32Array(k * n);
  for (let col = 0; col < n; col++) {
    for (let b = 0; b < blocks; b++) {
      const scale = w.scales[col * blocks + b] as number;
      const zp = w.zeroPoints === undefined
        ? defaultZp
        : (((w.zeroPoints[col * zpRow + Math.floor(b / perByte)] as number) >> ((b % perByte) * bits)) & mask);
      const base = (col * blocks + b) * blob;
      for (let j = 0; j < blockSize; j++) {
        const row = b * blockSize + j;
        if (row >= k) break;
        const q = ((w.packed[base + Math.floor(j / perByte)] as number) >> ((j % perByte) * bits)) & mask;
        out[row * n + col] = Math.fround((q - zp) * scale);
      }
    }
  }
  return out;
}
