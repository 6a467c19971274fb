/**
 * What a transformers.js model really loaded, read from its own ONNX session
 * rather than from the options inferbench passed: transformers.js picks the
 * device and the graph file (by dtype) itself and records both on the
 * session it creates (`session.config = { device, dtype }`, see its
 * backends/onnx.js `createInferenceSession`). The nodes' placement comes from
 * ORT's profiler on the same file with the same session options.
 */
import { basename, join } from 'node:path';
import type { ProviderPlacement, Precision } from '../../src/session.js';
import { dtypeNames, dtypeOfOnnxFile, dtypeOnnxFile, dtypePrecision, type ModelDtype } from '../../src/model-dtypes.js';
import { CPU_PROVIDER, profilePlacement, type OrtNodeLike } from '../onnx/ort-placement.js';

/** The parts of a transformers.js ONNX session read here. */
export interface TransformersJsSessionLike {
  config?: { dtype?: unknown; device?: unknown };
}

/** Device, dtype, graph file and precision transformers.js used for one session. */
export interface LoadedGraph {
  readonly device: string;
  readonly dtype: string;
  readonly file: string;
  readonly precision: Precision;
}

/**
 * Reads device and dtype off the session and checks the graph file that
 * dtype selects is the one the cell is about; anything missing or different
 * is an error, never a guess from what was asked.
 */
export function loadedGraph(session: TransformersJsSessionLike, onnxPath: string): LoadedGraph {
  const { device, dtype } = session.config ?? {};
  if (typeof device !== 'string' || typeof dtype !== 'string') {
    throw new Error(
      `transformers.js did not record the device and dtype of its ONNX session (config ${JSON.stringify(session.config ?? null)}), so what ran cannot be read back`,
    );
  }
  const known = dtypeOfOnnxFile(basename(onnxPath)) === dtype ? (dtype as ModelDtype) : undefined;
  if (known === undefined) {
    const file = dtypeNames().includes(dtype as ModelDtype) ? `onnx/${basename(dtypeOnnxFile(dtype as ModelDtype))}` : 'a graph inferbench has no file name for';
    throw new Error(`transformers.js loaded ${file} (dtype ${dtype}), not the benchmarked ${basename(onnxPath)}`);
  }
  return { device, dtype, file: basename(onnxPath), precision: dtypePrecision(known) };
}

/** ORT's provider name for a transformers.js device on onnxruntime-node. */
export function providerOf(device: string): string {
  return device === 'cpu' ? CPU_PROVIDER : device === 'cuda' ? 'CUDAExecutionProvider' : device;
}

/**
 * Placement of the graph transformers.js loaded, from a profiling session
 * given the same options it gave ORT. Returns the error text instead when
 * profiling fails, for a note: a missing measurement, said out loud.
 */
export async function loadedPlacement(folder: string, graph: LoadedGraph, sessionOptions: object): Promise<ProviderPlacement | string> {
  try {
    const ort = (await import('onnxruntime-node')) as unknown as OrtNodeLike;
    return await profilePlacement(ort, join(folder, 'onnx', graph.file), sessionOptions, providerOf(graph.device));
  } catch (err) {
    return `placement not read from ORT's profiler: ${(err as Error).message.split('\n')[0]}`;
  }
}
