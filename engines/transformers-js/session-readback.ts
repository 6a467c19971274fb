/**
 * What a transformers.js model really opened, read from its own ONNX session
 * rather than from the options inferbench passed: transformers.js picks the
 * device and the graph file (by dtype) itself and records both on the
 * session it creates (`session.config = { device, dtype }`, see its
 * backends/onnx.js `createInferenceSession`). The nodes' placement comes from
 * ORT's profiler on the same file with the same session options.
 */
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CellSkip } from '../../src/core/errors.js';
import { installedVersion } from '../../src/core/package-info.js';
import type { ProviderPlacement, Precision, SessionDescription } from '../../src/core/engine-session.js';
import type { GpuAdapter } from '../../src/core/gpu-adapter.js';
import { dtypeNames, dtypeOfOnnxFile, dtypeOnnxFile, dtypePrecision, type ModelDtype } from '../../src/core/dtypes.js';
import { CPU_PROVIDER, noGpuNodes, profilePlacement, type OrtNodeLike } from '../onnx/ort-placement.js';

/** The parts of a transformers.js ONNX session read here. */
export interface TransformersJsSessionLike {
  config?: { dtype?: unknown; device?: unknown };
}

/** Device, dtype, graph file and precision transformers.js used for one session. */
export interface OpenedGraph {
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
export function openedGraph(session: TransformersJsSessionLike, onnxPath: string): OpenedGraph {
  const { device, dtype } = session.config ?? {};
  if (typeof device !== 'string' || typeof dtype !== 'string') {
    throw new Error(
      `transformers.js did not record the device and dtype of its ONNX session (config ${JSON.stringify(session.config ?? null)}), so what ran cannot be read back`,
    );
  }
  const known = dtypeOfOnnxFile(basename(onnxPath)) === dtype ? (dtype as ModelDtype) : undefined;
  if (known === undefined) {
    const file = dtypeNames().includes(dtype as ModelDtype) ? `onnx/${basename(dtypeOnnxFile(dtype as ModelDtype))}` : 'a graph inferbench has no file name for';
    throw new Error(`transformers.js opened ${file} (dtype ${dtype}), not the benchmarked ${basename(onnxPath)}`);
  }
  return { device, dtype, file: basename(onnxPath), precision: dtypePrecision(known) };
}

/** ORT's provider name for a transformers.js device on onnxruntime-node. */
export function providerOf(device: string): string {
  return device === 'cpu' ? CPU_PROVIDER : device === 'cuda' ? 'CUDAExecutionProvider' : device === 'webgpu' ? 'WebGpuExecutionProvider' : device;
}

/**
 * Placement of the graph transformers.js opened, from a profiling session
 * given the same options it gave ORT. Returns the error text instead when
 * profiling fails, for a note: a missing measurement, said out loud.
 */
export async function openedPlacement(folder: string, graph: OpenedGraph, sessionOptions: object): Promise<ProviderPlacement | string> {
  try {
    const ort = (await import('onnxruntime-node')) as unknown as OrtNodeLike;
    return await profilePlacement(ort, join(folder, 'onnx', graph.file), sessionOptions, providerOf(graph.device));
  } catch (err) {
    return `placement not read from ORT's profiler: ${(err as Error).message.split('\n')[0]}`;
  }
}

/** Devices of the transformers.js engines. */
export type Device = 'cpu' | 'cuda' | 'webgpu';

const PACKAGE = '@huggingface/transformers';

/** The Hugging Face folder and transformers.js dtype of `onnxPath`, or why it is not loadable by the pipeline. */
export function pipelineTarget(onnxPath: string): { folder: string; dtype: string } {
  const onnxDir = dirname(onnxPath);
  const folder = dirname(onnxDir);
  if (basename(onnxDir) !== 'onnx' || !existsSync(join(folder, 'config.json'))) {
    throw new CellSkip(`transformers-js opens Hugging Face model folders (config.json, onnx/model*.onnx); ${onnxPath} is not in one`);
  }
  const dtype = dtypeOfOnnxFile(basename(onnxPath));
  if (!dtype) throw new CellSkip(`transformers-js selects graphs by dtype and has no dtype for ${basename(onnxPath)}`);
  return { folder, dtype };
}

/** Session options inferbench gives transformers.js, providers included, so a profiling pass can reuse them exactly. */
export function transformersSessionOptions(device: Device, threads: number): Record<string, unknown> {
  return { executionProviders: [device], intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' };
}

/**
 * The session description of an opened transformers.js model: device, dtype
 * and precision read off its own ONNX session, node placement from ORT's
 * profiler. A GPU device whose provider ran no node is refused, as on onnx-cuda.
 */
export async function describeOpened(
  id: string,
  session: TransformersJsSessionLike,
  onnxPath: string,
  folder: string,
  sessionOptions: object,
  threads: number,
  notes: readonly string[],
  adapter?: GpuAdapter,
): Promise<SessionDescription> {
  const graph = openedGraph(session, onnxPath);
  const placement = await openedPlacement(folder, graph, sessionOptions);
  if (typeof placement !== 'string' && graph.device !== 'cpu') {
    const problem = noGpuNodes(placement, providerOf(graph.device));
    if (problem !== null) throw new Error(problem);
  }
  return {
    engine: id,
    backend: `onnxruntime-node ${graph.device} via transformers.js${adapter === undefined ? '' : ` on ${adapter.label}`}`,
    threads,
    precision: graph.precision,
    versions: { [PACKAGE]: installedVersion(PACKAGE) ?? 'unknown', 'onnxruntime-node': installedVersion('onnxruntime-node') ?? 'unknown' },
    notes: [...notes, `dtype ${graph.dtype} (${graph.file})`, ...(typeof placement === 'string' ? [placement] : [])],
    ...(typeof placement === 'string' ? {} : { placement }),
    ...(adapter === undefined ? {} : { adapter }),
  };
}

