import type * as tf from '@tensorflow/tfjs-core';

/** tfjs-core, passed in by custom-kernels.ts: this module imports it for types only, so the note below costs the CLI no tfjs import. */
type Core = typeof tf;

/**
 * LayerNorm and GELU as one WGSL compute shader each on tfjs-backend-webgpu,
 * registered under the kernel names custom-kernels.ts uses on the CPU
 * backends. tfjs has no fused kernel for either, so from tfjs ops a
 * LayerNorm is 9 dispatches (mean, sub, square, mean, add, rsqrt, mul, mul,
 * add) and an erf GELU 5, each with its own bind group, uniform buffer and
 * intermediate buffer: 23 of a BERT layer's ~41 dispatches. Counted on
 * SwiftShader, a forward of a 12-layer BERT was ~500 dispatches; the fixed
 * cost tfjs-webgpu paid per forward on an H100 (about 140 ms on bert-base,
 * flat in batch) is CPU-side work per dispatch, not GPU arithmetic.
 *
 * The maths is the tfjs-op path's: mean and variance over the last axis,
 * (x − mean)·inverseSqrt(var + ε)·γ + β; GELU as 0.5·x·(1 + erf(x/√2)) with
 * tfjs's own erf approximation (Abramowitz–Stegun, the constants tfjs-core
 * exports), or the tanh form.
 */

/** What runs differently on tfjs-webgpu, in Node and in the page: two inferbench shaders instead of 9 and 5 tfjs kernels, and the embedding gather on the GPU (ops-tensor.ts). */
export const WEBGPU_KERNELS_NOTE = "LayerNorm and GELU each one WGSL compute shader of inferbench's (webgpu-kernels.ts), not 9 and 5 tfjs-backend-webgpu kernels; every other op is tfjs-backend-webgpu's own, embedding lookups included (a GPU gather on the resident table, not host row copies uploaded each batch)";

/** What a WebGPU program is to tfjs-backend-webgpu 4.22's runWebGPUProgram (its WebGPUProgram interface). */
interface WgslProgram {
  outputShape: number[];
  shaderKey: string;
  dispatchLayout: { x: number[] };
  dispatch: [number, number, number];
  variableNames: string[];
  uniforms?: string;
  workgroupSize: [number, number, number];
  size?: boolean;
  getUserCode(): string;
}

/** The part of tfjs-backend-webgpu's WebGPUBackend a kernel calls. */
interface WebGpuBackendLike {
  runWebGPUProgram(program: WgslProgram, inputs: tf.TensorInfo[], outputDtype: tf.DataType, uniforms?: { type: string; data: number[] }[]): tf.TensorInfo;
}

/** Threads per row: a BERT row is 128–1024 wide, so each thread sums a few strided elements, then the group reduces in shared memory. */
const ROW_THREADS = 64;
const FLAT_THREADS = 128;

/** One workgroup per row of the last axis; the row's sum and sum of squared deviations are reduced in workgroup memory. */
function layerNormProgram(rows: number, cols: number): WgslProgram {
  return {
    outputShape: [rows, cols],
    shaderKey: `inferbench_layernorm_${ROW_THREADS}`,
    dispatchLayout: { x: [0, 1] },
    dispatch: [rows, 1, 1],
    variableNames: ['x', 'gamma', 'beta'],
    uniforms: 'epsilon : f32,',
    workgroupSize: [ROW_THREADS, 1, 1],
    getUserCode: () => `
    var<workgroup> partial : array<f32, ${ROW_THREADS}>;
    fn rowSum(tid : i32) -> f32 {
      workgroupBarrier();
      for (var stride = ${ROW_THREADS / 2}; stride > 0; stride = stride >> 1) {
        if (tid < stride) { partial[tid] = partial[tid] + partial[tid + stride]; }
        workgroupBarrier();
      }
      let total = partial[0];
      workgroupBarrier();
      return total;
    }
    fn main(index : i32) {
      let tid = i32(localId.x);
      // From the global index, not workgroupId.x: tfjs splits a dispatch over 65535 workgroups into 2-D (reshapeDispatch).
      let row = index / ${ROW_THREADS};
      let cols = uniforms.outShape[1];
      let base = row * cols;
      var sum = 0.0;
      for (var c = tid; c < cols; c += ${ROW_THREADS}) { sum += x[base + c]; }
      partial[tid] = sum;
      let mean = rowSum(tid) / f32(cols);
      var sq = 0.0;
      for (var c = tid; c < cols; c += ${ROW_THREADS}) { let d = x[base + c] - mean; sq += d * d; }
      partial[tid] = sq;
      let invStd = inverseSqrt(rowSum(tid) / f32(cols) + uniforms.epsilon);
      for (var c = tid; c < cols; c += ${ROW_THREADS}) {
        result[base + c] = (x[base + c] - mean) * invStd * gamma[c] + beta[c];
      }
    }`,
  };
}

/** One thread per element. */
function geluProgram(core: Core, size: number, tanh: boolean): WgslProgram {
  const { ERF_P, ERF_A1, ERF_A2, ERF_A3, ERF_A4, ERF_A5 } = core.backend_util;
  const body = tanh
    ? `let inner = ${Math.sqrt(2 / Math.PI)} * (a + 0.044715 * a * a * a);
        result[index] = 0.5 * a * (1.0 + tanh(inner));`
    : `let z = a * ${Math.SQRT1_2};
        let s = sign(z);
        let t = 1.0 / (1.0 + ${ERF_P} * abs(z));
        let erf = s * (1.0 - (((((${ERF_A5} * t + ${ERF_A4}) * t) + ${ERF_A3}) * t + ${ERF_A2}) * t + ${ERF_A1}) * t * exp(-z * z));
        result[index] = 0.5 * a * (1.0 + erf);`;
  return {
    outputShape: [size],
    shaderKey: `inferbench_gelu_${tanh ? 'tanh' : 'erf'}`,
    dispatchLayout: { x: [0] },
    dispatch: [Math.ceil(size / FLAT_THREADS), 1, 1],
    variableNames: ['x'],
    workgroupSize: [FLAT_THREADS, 1, 1],
    size: true,
    getUserCode: () => `
    fn main(index : i32) {
      if (index < uniforms.size) {
        let a = x[index];
        ${body}
      }
    }`,
  };
}

/** The same data seen with another shape: what tfjs-backend-webgpu's Reshape returns, without its refcount (runWebGPUProgram reads the buffer only). */
function viewAs(t: tf.TensorInfo, shape: number[]): tf.TensorInfo {
  return { dataId: t.dataId, shape, dtype: t.dtype };
}

/** Kernel functions for tfjs-backend-webgpu under `layerNormName` and `geluName`. */
export function webGpuKernels(core: Core, layerNormName: string, geluName: string): tf.KernelConfig[] {
  return [
    {
      kernelName: layerNormName,
      backendName: 'webgpu',
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { x, gamma, beta } = inputs as unknown as Record<'x' | 'gamma' | 'beta', tf.TensorInfo>;
        const cols = x.shape[x.shape.length - 1] ?? 1;
        const rows = core.util.sizeFromShape(x.shape) / cols;
        const epsilon = (attrs as unknown as { epsilon: number }).epsilon;
        const out = (backend as unknown as WebGpuBackendLike).runWebGPUProgram(layerNormProgram(rows, cols), [viewAs(x, [rows, cols]), gamma, beta], 'float32', [
          { type: 'float32', data: [epsilon] },
        ]);
        return viewAs(out, [...x.shape]);
      },
    },
    {
      kernelName: geluName,
      backendName: 'webgpu',
      kernelFunc: ({ inputs, backend, attrs }) => {
        const { x } = inputs as unknown as { x: tf.TensorInfo };
        const size = core.util.sizeFromShape(x.shape);
        const tanh = (attrs as unknown as { tanh: number }).tanh === 1;
        const out = (backend as unknown as WebGpuBackendLike).runWebGPUProgram(geluProgram(core, size, tanh), [viewAs(x, [size])], 'float32');
        return viewAs(out, [...x.shape]);
      },
    },
  ];
}
