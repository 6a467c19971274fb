import type { PreparedCall } from '../../src/core/engine-session.js';
import { halfToFloat, type HostTensor, type TensorMap } from '../../src/core/tensor.js';

/** The slice of the onnxruntime-common Tensor API that both onnxruntime-node and -web share. */
export interface OrtTensorLike {
  readonly type: string;
  readonly dims: readonly number[];
  readonly data: unknown;
}

/** Constructor of `ort.Tensor`, typed loosely so node and web builds both fit. */
export type OrtTensorCtor = new (type: string, data: unknown, dims: readonly number[]) => OrtTensorLike;

/**
 * Wraps host tensors as ORT tensors without copying: both runtimes accept the
 * typed array as is, so the engine time does not include a conversion copy.
 */
export function toOrtFeeds(Tensor: OrtTensorCtor, inputs: TensorMap): Record<string, OrtTensorLike> {
  const feeds: Record<string, OrtTensorLike> = {};
  for (const [name, t] of Object.entries(inputs)) {
    feeds[name] = new Tensor(t.dtype, t.data, t.dims);
  }
  return feeds;
}

/** Reads ORT outputs back as host tensors; throws on dtypes inferbench does not compare. */
export function fromOrtOutputs(outputs: Record<string, OrtTensorLike>): TensorMap {
  const result: TensorMap = {};
  for (const [name, t] of Object.entries(outputs)) {
    result[name] = fromOrtTensor(name, t);
  }
  return result;
}

function fromOrtTensor(name: string, t: OrtTensorLike): HostTensor {
  const dims = [...t.dims];
  switch (t.type) {
    case 'float32':
      return { dtype: 'float32', dims, data: t.data as Float32Array };
    case 'float16': {
      // Compare fp16 models in fp32; the copy happens after timing-relevant work. Without Float16Array
      // (Node < 22) onnxruntime hands back the raw half-precision bits in a Uint16Array.
      const src = t.data as ArrayLike<number>;
      return { dtype: 'float32', dims, data: src instanceof Uint16Array ? Float32Array.from(src, halfToFloat) : Float32Array.from(src) };
    }
    case 'int64':
      return { dtype: 'int64', dims, data: t.data as BigInt64Array };
    case 'int32':
      return { dtype: 'int32', dims, data: t.data as Int32Array };
    case 'bool':
      return { dtype: 'bool', dims, data: t.data as Uint8Array };
    default:
      throw new Error(`output "${name}" has dtype ${t.type}, which inferbench cannot read back`);
  }
}

/** The part of an ORT `InferenceSession` (node or web) that a prepared call needs. */
export interface OrtRunner {
  run(feeds: Record<string, OrtTensorLike>): Promise<Record<string, OrtTensorLike>>;
}

/**
 * A batch wrapped as ORT tensors ahead of the clock, so the timed region
 * holds `InferenceSession.run` alone, exactly what a bare loop times; the
 * outputs it resolves with are already host typed arrays, read back into
 * inferbench's tensors after the clock by `outputs()`.
 */
export function preparedOrtCall(session: OrtRunner, Tensor: OrtTensorCtor, inputs: TensorMap): PreparedCall {
  const feeds = toOrtFeeds(Tensor, inputs);
  let last: Record<string, OrtTensorLike> | null = null;
  return {
    async run() {
      last = await session.run(feeds);
    },
    outputs() {
      if (last === null) throw new Error('outputs() called before run() finished');
      return fromOrtOutputs(last);
    },
  };
}
