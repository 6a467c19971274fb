/**
 * Which device libtensorflow really runs tfjs-node's ops on. tfjs-node-gpu
 * loads without a word when the CUDA 11.2 / cuDNN 8.1 libraries are missing:
 * TensorFlow lists no GPU device and every op runs on the CPU. The native
 * backend records what it found when it started (tfjs-node 4.22,
 * binding/tfjs_backend.cc: the TFE context's device list, a GPU device taken
 * when there is one) as `tf.backend().isUsingGpuDevice`, and which package
 * registered it as `isGPUPackage`; this reads both back.
 */

/** The fields of tfjs-node's `NodeJSKernelBackend` read here; absent on other backends. */
export interface NativeBackendLike {
  readonly isGPUPackage?: unknown;
  readonly isUsingGpuDevice?: unknown;
  readonly binding?: { readonly TF_Version?: unknown; isUsingGpuDevice?(): unknown };
}

/** The device the cell runs on, or why it must not run. */
export type NativeDevice =
  | { readonly ok: true; readonly backend: string; readonly versions: Readonly<Record<string, string>>; readonly notes: readonly string[] }
  | { readonly ok: false; readonly reason: string };

const MISSING_GPU =
  'tfjs-node-gpu asked for the GPU, but libtensorflow listed no GPU device and would run every op on the CPU ' +
  '(the CUDA 11.2 and cuDNN 8.1 libraries that tfjs-node-gpu 4.x needs are missing or not on LD_LIBRARY_PATH, or no GPU is visible)';

/**
 * Decides from the backend's own record. `wantGpu` is true for tfjs-node-gpu:
 * a GPU cell on the CPU errors with the reason; a record that cannot be read
 * is an error too, not a guess, and so is a CPU cell that would run on a GPU
 * (both packages installed, the GPU one registered first).
 */
export function nativeDevice(backend: NativeBackendLike, wantGpu: boolean): NativeDevice {
  const usingGpu = typeof backend.isUsingGpuDevice === 'boolean' ? backend.isUsingGpuDevice : backend.binding?.isUsingGpuDevice?.();
  if (typeof usingGpu !== 'boolean') {
    return { ok: false, reason: "the 'tensorflow' backend does not report its device (no isUsingGpuDevice: not tfjs-node 4.x's NodeJSKernelBackend?)" };
  }
  const gpuPackage = backend.isGPUPackage === true;
  if (wantGpu && !gpuPackage) {
    return { ok: false, reason: "the 'tensorflow' backend was registered by @tensorflow/tfjs-node (CPU build), not @tensorflow/tfjs-node-gpu; install only one of them" };
  }
  if (wantGpu && !usingGpu) return { ok: false, reason: MISSING_GPU };
  if (!wantGpu && usingGpu) {
    return { ok: false, reason: "tfjs-node (CPU) was asked for, but the 'tensorflow' backend is @tensorflow/tfjs-node-gpu's and runs on a GPU; use tfjs-node-gpu, or install only @tensorflow/tfjs-node" };
  }
  const tfVersion = typeof backend.binding?.TF_Version === 'string' ? backend.binding.TF_Version : 'unknown';
  const notes = usingGpu
    ? ['ops are sent to the first GPU TensorFlow lists; an op without a GPU kernel may still run on the CPU, which tfjs-node does not report']
    : [];
  if (!wantGpu && gpuPackage) notes.push("the 'tensorflow' backend comes from @tensorflow/tfjs-node-gpu (registered first)");
  return { ok: true, backend: `tensorflow ${usingGpu ? 'GPU' : 'CPU'}`, versions: { libtensorflow: tfVersion }, notes };
}
