import * as tf from '@tensorflow/tfjs-core';
import { webGpuKernels } from './webgpu-kernels.js';

/**
 * Kernels inferbench adds to tfjs for patterns every transformer export is
 * full of: LayerNorm (9 ONNX ops below opset 17) and GELU (5 ops in erf form,
 * 8 in tanh form). tfjs spends 10–20 µs of dispatch per kernel, which is most
 * of a small model's time at batch 1, so one kernel per pattern matters more
 * than the arithmetic. They are plain JS loops over the backend's own memory
 * (the wasm heap or the cpu backend's arrays), registered with
 * tf.registerKernel for the wasm and cpu backends and used up to a size
 * where dispatch still dominates; larger tensors get the same maths from
 * tfjs ops. On tfjs-node each tfjs op is a libtensorflow eager op costing
 * 30–50 µs to dispatch (LayerNorm from tfjs ops is 10 of them plus 2 Casts
 * and 3 uploaded constants), so there the kernel copies its input out of
 * TensorFlow, computes in JS and hands the result back for upload: one
 * copy each way instead of a dozen dispatches. On tfjs-webgpu the same
 * kernel names run one WGSL shader each, at every size (webgpu-kernels.ts).
 */
/** Kernel names; gradient-kernels.ts registers their gradients. */
export const LAYER_NORM = 'InferbenchLayerNorm';
export const GELU = 'InferbenchGelu';
const CUSTOM_BACKENDS = ['wasm', 'cpu', 'tensorflow'] as const;
type CustomBackend = (typeof CUSTOM_BACKENDS)[number];

/** Backend methods the kernels use; both are public on the wasm and cpu backends. */
interface WasmLike {
  makeOutput(shape: number[], dtype: tf.DataType): tf.TensorInfo;
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array;
}
interface CpuLike {
  data: { get(dataId: tf.DataId): { values: unknown } };
  makeTensorInfo(shape: number[], dtype: tf.DataType, values: Float32Array): tf.TensorInfo;
}
/** tfjs-node's NodeJSKernelBackend: readSync copies a tensor out of TensorFlow; write keeps values until an op needs them uploaded. */
interface NodeLike {
  readSync(dataId: tf.DataId): unknown;
  write(values: Float32Array, shape: number[], dtype: tf.DataType): tf.DataId;
}

/** Runs `compute(inputs…, out)` on float32 arrays of whichever backend is active. */
function jsKernel(backendName: string, compute: (ins: Float32Array[], out: Float32Array, attrs: Record<string, number>, shape: readonly number[]) => void): tf.KernelFunc {
  return ({ inputs, backend, attrs }) => {
    const infos = Object.values(inputs) as tf.TensorInfo[];
    const x = infos[0] as tf.TensorInfo;
    const nums = attrs as unknown as Record<string, number>;
    if (backendName === 'wasm') {
      const b = backend as unknown as WasmLike;
      // The output first: allocating may grow the heap, which detaches earlier views of it.
      const out = b.makeOutput([...x.shape], 'float32');
      compute(infos.map((t) => b.typedArrayFromHeap(t)), b.typedArrayFromHeap(out), nums, x.shape);
      return out;
    }
    const values = new Float32Array(x.shape.reduce((p, d) => p * d, 1));
    if (backendName === 'tensorflow') {
      const n = backend as unknown as NodeLike;
      compute(infos.map((t) => n.readSync(t.dataId) as Float32Array), values, nums, x.shape);
      return { dataId: n.write(values, [...x.shape], 'float32'), shape: [...x.shape], dtype: 'float32' };
    }
    const b = backend as unknown as CpuLike;
    compute(infos.map((t) => b.data.get(t.dataId).values as Float32Array), values, nums, x.shape);
    return b.makeTensorInfo([...x.shape], 'float32', values);
  };
}

/** LayerNorm over the last axis, accumulated in float64, with 1-D scale and bias. */
function layerNormRows(ins: Float32Array[], out: Float32Array, attrs: Record<string, number>, shape: readonly number[]): void {
  const [x, gamma, beta] = ins as [Float32Array, Float32Array, Float32Array];
  const n = shape[shape.length - 1] ?? 1;
  const eps = attrs['epsilon'] ?? 1e-5;
  for (let start = 0; start < x.length; start += n) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += x[start + i] as number;
    const mean = sum / n;
    let sq = 0;
    for (let i = 0; i < n; i++) {
      const d = (x[start + i] as number) - mean;
      sq += d * d;
    }
    const inv = 1 / Math.sqrt(sq / n + eps);
    for (let i = 0; i < n; i++) out[start + i] = ((x[start + i] as number) - mean) * inv * (gamma[i] as number) + (beta[i] as number);
  }
}

/** erf with relative error below 1.2e-7 (Numerical Recipes' erfc Chebyshev fit), float32 is 6e-8. */
function erf(z: number): number {
  const t = 1 / (1 + 0.5 * Math.abs(z));
  const r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 +
    t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))));
  return z >= 0 ? 1 - r : r - 1;
}

/** GELU, exact (erf) when attrs.tanh is 0, the tanh approximation (gelu_new, GPT-2) when 1. */
function geluValues(ins: Float32Array[], out: Float32Array, attrs: Record<string, number>): void {
  const x = ins[0] as Float32Array;
  const k = Math.sqrt(2 / Math.PI);
  if (attrs['tanh'] === 1) {
    for (let i = 0; i < x.length; i++) {
      const v = x[i] as number;
      out[i] = 0.5 * v * (1 + Math.tanh(k * (v + 0.044715 * v * v * v)));
    }
    return;
  }
  for (let i = 0; i < x.length; i++) {
    const v = x[i] as number;
    out[i] = 0.5 * v * (1 + erf(v * Math.SQRT1_2));
  }
}

let registered = false;

/** Registers the kernels once per process (tfjs's kernel registry is global). */
function ensureRegistered(): void {
  if (registered) return;
  registered = true;
  for (const config of webGpuKernels(tf, LAYER_NORM, GELU)) if (!tf.getKernel(config.kernelName, 'webgpu')) tf.registerKernel(config);
  for (const backendName of CUSTOM_BACKENDS) {
    if (!tf.getKernel(LAYER_NORM, backendName)) tf.registerKernel({ kernelName: LAYER_NORM, backendName, kernelFunc: jsKernel(backendName, layerNormRows) });
    if (!tf.getKernel(GELU, backendName)) tf.registerKernel({ kernelName: GELU, backendName, kernelFunc: jsKernel(backendName, (ins, out, attrs) => geluValues(ins, out, attrs)) });
  }
}

/**
 * Above these sizes the backend's own kernels win: their SIMD loops beat
 * the JS loop by more than the dispatch the fusion saves (measured on
 * tfjs-wasm: JS GELU costs ~80 ns an element with erf's exp, the 5 wasm
 * kernels ~20 ns plus ~75 µs of dispatch). libtensorflow's kernels can use
 * several threads, so tfjs-node hands large tensors back to them too.
 */
const MAX_JS_ELEMENTS: Readonly<Record<CustomBackend, { readonly layerNorm: number; readonly gelu: number }>> = {
  wasm: { layerNorm: 32768, gelu: 4096 },
  cpu: { layerNorm: 32768, gelu: 4096 },
  tensorflow: { layerNorm: 32768, gelu: 4096 },
};

function customBackend(size: number, kernel: 'layerNorm' | 'gelu'): boolean {
  const name = tf.getBackend();
  // On tfjs-webgpu the kernels are one WGSL shader each (webgpu-kernels.ts): fewer dispatches at any size.
  if (name === 'webgpu') return true;
  return (CUSTOM_BACKENDS as readonly string[]).includes(name) && size <= MAX_JS_ELEMENTS[name as CustomBackend][kernel];
}

/** LayerNorm over the last axis with 1-D gamma and beta of that size; `eps` is epsilon as a kept scalar tensor where the caller has one (OpContext.scalar). */
export function layerNormLastAxis(x: tf.Tensor, gamma: tf.Tensor, beta: tf.Tensor, epsilon: number, eps: number | tf.Tensor = epsilon): tf.Tensor {
  if (customBackend(x.size, 'layerNorm') && x.dtype === 'float32' && gamma.dtype === 'float32' && beta.dtype === 'float32') {
    ensureRegistered();
    return tf.engine().runKernel(LAYER_NORM, { x, gamma, beta } as unknown as tf.NamedTensorMap, { epsilon } as unknown as tf.NamedAttrMap) as tf.Tensor;
  }
  const mean = tf.mean(x, -1, true);
  const centered = tf.sub(x, mean);
  const invStd = tf.rsqrt(tf.add(tf.mean(tf.square(centered), -1, true), eps));
  return tf.add(tf.mul(tf.mul(centered, invStd), gamma), beta);
}

/** GELU of a float32 tensor; `tanh` selects the approximation GPT-2 and ALBERT use; `scalar` gives kept constants (OpContext.scalar), else numbers are used. */
export function gelu(x: tf.Tensor, tanh: boolean, scalar: (value: number) => number | tf.Tensor = (v) => v): tf.Tensor {
  if (customBackend(x.size, 'gelu') && x.dtype === 'float32') {
    ensureRegistered();
    return tf.engine().runKernel(GELU, { x } as unknown as tf.NamedTensorMap, { tanh: tanh ? 1 : 0 } as unknown as tf.NamedAttrMap) as tf.Tensor;
  }
  if (tanh) {
    const inner = tf.mul(scalar(Math.sqrt(2 / Math.PI)), tf.add(x, tf.mul(scalar(0.044715), tf.pow(x, scalar(3)))));
    return tf.mul(tf.mul(scalar(0.5), x), tf.add(scalar(1), tf.tanh(inner)));
  }
  return tf.mul(tf.mul(scalar(0.5), x), tf.add(scalar(1), tf.erf(tf.mul(x, scalar(Math.SQRT1_2)))));
}
