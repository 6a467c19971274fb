/**
 * What the generated models (the BERT classifier, the GPT-2 decoder) share
 * when writing a graph: torch.onnx-style node names, deduplicated constants,
 * and weights drawn from a seeded generator so the same config always gives
 * the same bytes.
 */
import { attr, OnnxModelBuilder, type ModelOptions } from '../../core/onnx/onnx-builder.js';
import { hostTensor, type HostTensor } from '../../core/tensor.js';
import { createRandom } from '../../../datasets/seeded-random.js';

/** Standard deviation of weight init, `initializer_range` of BertConfig and GPT2Config alike. */
export const INITIALIZER_RANGE = 0.02;

/**
 * mulberry32 seeded from a 32-bit seed: the one PRNG of the project
 * (datasets/seeded-random.ts), reproducible on every platform unlike Math.random.
 */
export function mulberry32(seed: number): () => number {
  return createRandom(seed >>> 0);
}

/** FNV-1a of a name mixed with the seed: each tensor gets its own stream, so adding a tensor never shifts the others' values. */
export function tensorSeed(seed: number, name: string): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** `count` samples of N(0, std²) by Box-Muller, stored as float32. */
export function normalArray(count: number, std: number, random: () => number): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i += 2) {
    const u1 = 1 - random(); // (0, 1]: log never sees 0
    const u2 = random();
    const r = Math.sqrt(-2 * Math.log(u1)) * std;
    out[i] = r * Math.cos(2 * Math.PI * u2);
    if (i + 1 < count) out[i + 1] = r * Math.sin(2 * Math.PI * u2);
  }
  return out;
}

/** A float32 host tensor from numbers. */
export const f32 = (dims: readonly number[], values: Float32Array | readonly number[]): HostTensor =>
  hostTensor('float32', dims, values instanceof Float32Array ? values : Float32Array.from(values));
/** An int64 host tensor from numbers. */
export const i64 = (dims: readonly number[], values: readonly number[]): HostTensor =>
  hostTensor('int64', dims, BigInt64Array.from(values, (v) => BigInt(v)));

/** Graph-writing context: the builder plus torch-style node naming, shared constants and seeded weights. */
export class SeededGraphWriter {
  readonly g: OnnxModelBuilder;
  private readonly nameCounts = new Map<string, number>();
  private readonly constants = new Map<string, string>();

  constructor(
    options: ModelOptions,
    private readonly seed: number,
  ) {
    this.g = new OnnxModelBuilder(options);
  }

  /** Node named like torch.onnx does: `<scope>/<Op>`, then `<scope>/<Op>_1`, ... */
  op(scope: string, opType: string, inputs: readonly string[], attributes?: Parameters<OnnxModelBuilder['op']>[2]): string {
    const base = `${scope}/${opType}`;
    const n = this.nameCounts.get(base) ?? 0;
    this.nameCounts.set(base, n + 1);
    return this.g.op(opType, inputs, attributes, n === 0 ? base : `${base}_${n}`);
  }

  /** A Constant node, shared by every use of the same value. */
  constant(t: HostTensor): string {
    const key = `${t.dtype}[${t.dims.join(',')}]${Array.from(t.data as ArrayLike<number | bigint>, String).join(',')}`;
    const existing = this.constants.get(key);
    if (existing) return existing;
    const name = this.g.constant(t, `/Constant_${this.constants.size}`);
    this.constants.set(key, name);
    return name;
  }

  /** The values of a random normal weight, as HF `_init_weights` draws for Linear and Embedding. */
  normalValues(name: string, dims: readonly number[]): Float32Array {
    const count = dims.reduce((a, b) => a * b, 1);
    return normalArray(count, INITIALIZER_RANGE, mulberry32(tensorSeed(this.seed, name)));
  }

  /** Random normal weight initializer; `zeroRow` zeroes one row (the padding embedding). */
  normal(name: string, dims: readonly number[], zeroRow?: number): string {
    const data = this.normalValues(name, dims);
    if (zeroRow !== undefined) data.fill(0, zeroRow * (dims[1] ?? 1), (zeroRow + 1) * (dims[1] ?? 1));
    return this.g.addInitializer(name, f32(dims, data));
  }

  filled(name: string, dims: readonly number[], value: number): string {
    const count = dims.reduce((a, b) => a * b, 1);
    return this.g.addInitializer(name, f32(dims, new Float32Array(count).fill(value)));
  }

  /** torch.nn.Linear (or GPT-2's Conv1D) exported for MatMul: weight stored as [in, out], bias added after. */
  linear(scope: string, param: string, x: string, inFeatures: number, outFeatures: number): string {
    const w = this.normal(`${param}.weight`, [inFeatures, outFeatures]);
    const b = this.filled(`${param}.bias`, [outFeatures], 0);
    return this.op(scope, 'Add', [this.op(scope, 'MatMul', [x, w]), b]);
  }

  /** LayerNorm over the last axis (`width` wide) as opset < 17 exports decompose it. */
  layerNorm(scope: string, param: string, x: string, width: number, eps: number): string {
    const gamma = this.filled(`${param}.weight`, [width], 1);
    const beta = this.filled(`${param}.bias`, [width], 0);
    const reduce = { axes: attr.ints([-1]), keepdims: attr.int(1) };
    const mean = this.op(scope, 'ReduceMean', [x], reduce);
    const centered = this.op(scope, 'Sub', [x, mean]);
    const squared = this.op(scope, 'Pow', [centered, this.constant(f32([], [2]))]);
    const variance = this.op(scope, 'ReduceMean', [squared], reduce);
    const shifted = this.op(scope, 'Add', [variance, this.constant(f32([], [eps]))]);
    const std = this.op(scope, 'Sqrt', [shifted]);
    const normed = this.op(scope, 'Div', [centered, std]);
    return this.op(scope, 'Add', [this.op(scope, 'Mul', [normed, gamma]), beta]);
  }
}
