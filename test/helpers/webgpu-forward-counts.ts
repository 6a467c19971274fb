/**
 * Counts what one call (a forward) costs tfjs-backend-webgpu in GPU round
 * trips, on its own entry points: read-backs (read/readSync), host→GPU
 * uploads (uploadToGPU of a tensor that still holds host values, with their
 * bytes), dispatches (runWebGPUProgram), pipelines compiled (new entries in
 * its pipeline cache) and the most live tfjs tensors and bytes seen at a
 * dispatch. Counts, not times: they are the same on SwiftShader as on a GPU.
 * Shared by test/e2e/engines/tfjs-webgpu-forward-counts.test.ts and
 * tools/bench-tfjs-webgpu.ts.
 */
import * as tf from '@tensorflow/tfjs-core';

/** The parts of tfjs-backend-webgpu's WebGPUBackend (4.22) counted through. */
interface WebGpuBackendLike {
  tensorMap: { get(id: unknown): { values: ArrayLike<number> & { byteLength?: number } | null; resource: unknown } | undefined };
  uploadToGPU(id: unknown): void;
  read(id: unknown): Promise<unknown>;
  readSync(id: unknown): unknown;
  runWebGPUProgram(...args: unknown[]): unknown;
  pipelineCache: Record<string, unknown>;
}

export interface ForwardCounts {
  reads: number;
  uploads: number;
  uploadBytes: number;
  dispatches: number;
  pipelinesCompiled: number;
  /** Most live tensors / bytes at a dispatch, above those live before the call. */
  extraTensors: number;
  extraBytes: number;
}

/** Wraps `method` of `obj` so each call first runs `count`; returns the undo. */
function countCalls<T extends object, K extends keyof T>(obj: T, method: K, count: (...args: unknown[]) => void): () => void {
  const original = obj[method] as unknown as (...args: unknown[]) => unknown;
  (obj as Record<K, unknown>)[method] = (...args: unknown[]) => {
    count(...args);
    return original.apply(obj, args);
  };
  return () => { (obj as Record<K, unknown>)[method] = original; };
}

/** Runs `call` with tfjs-webgpu as the active backend and returns its result and what it cost; the backend is left as it was. */
export async function countWebGpuCall<R>(call: () => Promise<R>): Promise<{ result: R; counts: ForwardCounts }> {
  if (tf.getBackend() !== 'webgpu') throw new Error(`countWebGpuCall needs the webgpu backend active, not ${tf.getBackend()}`);
  const backend = tf.backend() as unknown as WebGpuBackendLike;
  const counts: ForwardCounts = { reads: 0, uploads: 0, uploadBytes: 0, dispatches: 0, pipelinesCompiled: 0, extraTensors: 0, extraBytes: 0 };
  const pipelinesBefore = Object.keys(backend.pipelineCache).length;
  const resting = tf.memory();
  const undo = [
    countCalls(backend, 'read', () => { counts.reads++; }),
    countCalls(backend, 'readSync', () => { counts.reads++; }),
    countCalls(backend, 'uploadToGPU', (id) => {
      const data = backend.tensorMap.get(id);
      if (data === undefined || data.resource != null || data.values == null) return;
      counts.uploads++;
      counts.uploadBytes += data.values.byteLength ?? data.values.length * 4;
    }),
    countCalls(backend, 'runWebGPUProgram', () => {
      counts.dispatches++;
      const m = tf.memory();
      counts.extraTensors = Math.max(counts.extraTensors, m.numTensors - resting.numTensors);
      counts.extraBytes = Math.max(counts.extraBytes, m.numBytes - resting.numBytes);
    }),
  ];
  try {
    const result = await call();
    counts.pipelinesCompiled = Object.keys(backend.pipelineCache).length - pipelinesBefore;
    return { result, counts };
  } finally {
    for (const u of undo) u();
  }
}
