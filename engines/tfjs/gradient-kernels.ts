import * as tf from '@tensorflow/tfjs-core';
import { GELU, LAYER_NORM } from './custom-kernels.js';

/**
 * What training needs beyond the inference translation:
 *
 * - Gradients for inferbench's own kernels (LayerNorm over the last axis and
 *   GELU in custom-kernels.ts), registered with tf.registerGradient so a
 *   graph that reaches them (a LayerNormalization or Gelu node) can train.
 * - An embedding lookup whose gradient is a scatter-add of rows in JS. tfjs's
 *   own GatherV2 gradient goes through UnsortedSegmentSum, which the wasm
 *   backend lacks and the cpu backend computes with one pass over the
 *   batch per vocabulary row (30,000 passes for a BERT vocabulary).
 */
let registered: Promise<void> | undefined;

/**
 * Registers the gradients once per process (tfjs's gradient registry is
 * global). tfjs-core registers no gradients of its own ops: the
 * @tensorflow/tfjs bundle does, on import, into the same registry (its
 * tfjs-core is ours), and its ES-module files cannot be loaded by Node one
 * by one. Only training imports it, so inference never pays for it.
 */
export function ensureGradientKernels(): Promise<void> {
  registered ??= import('@tensorflow/tfjs').then(() => registerOwnGradients());
  return registered;
}

/** The wasm backend methods the segment-sum kernel uses (public on its backend class). */
interface WasmBackendLike {
  makeOutput(shape: number[], dtype: tf.DataType): tf.TensorInfo;
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array | Int32Array;
}

/**
 * UnsortedSegmentSum for the wasm backend, which lacks it: the gradient of
 * every Gather (the [CLS] row pick along the sequence axis, GatherElements)
 * goes through it. A JS loop over the heap, one pass over the input.
 */
function registerWasmSegmentSum(): void {
  if (tf.getKernel('UnsortedSegmentSum', 'wasm')) return;
  tf.registerKernel({
    kernelName: 'UnsortedSegmentSum',
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const { x, segmentIds } = inputs as unknown as { x: tf.TensorInfo; segmentIds: tf.TensorInfo };
      const numSegments = (attrs as unknown as { numSegments: number }).numSegments;
      const b = backend as unknown as WasmBackendLike;
      const inner = x.shape.slice(segmentIds.shape.length);
      const width = inner.reduce((p, d) => p * d, 1);
      // The output first: allocating may grow the heap, which detaches earlier views of it.
      const out = b.makeOutput([numSegments, ...inner], x.dtype);
      const dst = b.typedArrayFromHeap(out);
      dst.fill(0);
      const src = b.typedArrayFromHeap(x);
      const ids = b.typedArrayFromHeap(segmentIds);
      for (let i = 0; i < ids.length; i++) {
        const seg = ids[i] as number;
        if (seg < 0 || seg >= numSegments) continue;
        for (let j = 0; j < width; j++) dst[seg * width + j] = (dst[seg * width + j] as number) + (src[i * width + j] as number);
      }
      return out;
    },
  });
}

function registerOwnGradients(): void {
  registerWasmSegmentSum();
  if (!tf.getGradient(LAYER_NORM)) {
    tf.registerGradient({
      kernelName: LAYER_NORM,
      inputsToSave: ['x', 'gamma'],
      gradFunc: (dy, saved, attrs) => {
        const [x, gamma] = saved as [tf.Tensor, tf.Tensor];
        const d = dy as tf.Tensor;
        const eps = (attrs as unknown as { epsilon: number }).epsilon;
        const outer = Array.from({ length: x.rank - 1 }, (_, i) => i);
        const mean = tf.mean(x, -1, true);
        const centered = tf.sub(x, mean);
        const invStd = tf.rsqrt(tf.add(tf.mean(tf.square(centered), -1, true), eps));
        const xHat = tf.mul(centered, invStd);
        const dxHat = tf.mul(d, gamma);
        return {
          x: () => tf.mul(invStd, tf.sub(tf.sub(dxHat, tf.mean(dxHat, -1, true)), tf.mul(xHat, tf.mean(tf.mul(dxHat, xHat), -1, true)))),
          gamma: () => tf.sum(tf.mul(d, xHat), outer),
          beta: () => tf.sum(d, outer),
        };
      },
    });
  }
  if (!tf.getGradient(GELU)) {
    tf.registerGradient({
      kernelName: GELU,
      inputsToSave: ['x'],
      gradFunc: (dy, saved, attrs) => {
        const [x] = saved as [tf.Tensor];
        const tanh = (attrs as unknown as { tanh: number }).tanh === 1;
        return { x: () => tf.mul(dy as tf.Tensor, geluDerivative(x, tanh)) };
      },
    });
  }
}

/** d GELU(x) / dx, exact (erf) or of the tanh approximation. */
function geluDerivative(x: tf.Tensor, tanh: boolean): tf.Tensor {
  if (tanh) {
    const k = Math.sqrt(2 / Math.PI);
    const t = tf.tanh(tf.mul(k, tf.add(x, tf.mul(0.044715, tf.pow(x, 3)))));
    const dInner = tf.mul(k, tf.add(1, tf.mul(3 * 0.044715, tf.square(x))));
    return tf.add(tf.mul(0.5, tf.add(1, t)), tf.mul(tf.mul(0.5, x), tf.mul(tf.sub(1, tf.square(t)), dInner)));
  }
  const cdf = tf.mul(0.5, tf.add(1, tf.erf(tf.mul(x, Math.SQRT1_2))));
  const pdf = tf.mul(1 / Math.sqrt(2 * Math.PI), tf.exp(tf.mul(-0.5, tf.square(x))));
  return tf.add(cdf, tf.mul(x, pdf));
}

/** Rows of `dy` [n, width] added into a zero table of `rows` rows at `index`. */
function scatterAddRows(dy: Float32Array, index: Int32Array, rows: number, width: number): Float32Array {
  const out = new Float32Array(rows * width);
  for (let i = 0; i < index.length; i++) {
    const r = index[i] as number;
    const dst = r * width;
    const src = i * width;
    for (let j = 0; j < width; j++) out[dst + j] = (out[dst + j] as number) + (dy[src + j] as number);
  }
  return out;
}

/**
 * tf.gather(table, indices) along axis 0 with a JS scatter-add gradient for
 * the table (see the module comment). Indices must already be in range and
 * non-negative; the table must be float32.
 */
export function embeddingGather(table: tf.Tensor, indices: tf.Tensor): tf.Tensor {
  const rows = table.shape[0] ?? 0;
  const shape = [...table.shape];
  const width = table.size / Math.max(rows, 1);
  // The forward scope is disposed before the backward pass runs, so the indices are kept through `save`.
  const gather = tf.customGrad((...args: (tf.Tensor | tf.GradSaveFunc)[]) => {
    const [t, idx, save] = args as [tf.Tensor, tf.Tensor, tf.GradSaveFunc];
    save([idx]);
    return {
      value: tf.gather(t, idx, 0),
      gradFunc: (d: tf.Tensor, saved: tf.Tensor[]) => {
        const idx = saved[0] as tf.Tensor;
        const grad = scatterAddRows(d.dataSync() as Float32Array, idx.dataSync() as Int32Array, rows, width);
        return [tf.tensor(grad, shape, 'float32'), tf.zerosLike(idx)];
      },
    };
  });
  return gather(table, indices) as tf.Tensor;
}
