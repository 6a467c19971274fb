/**
 * The tfjs benchmark page, shared by its three backend entries: the project's
 * own ONNX→tfjs translator (engines/tfjs), bundled for the browser, or a
 * GraphModel fetched by tfjs-converter's `loadGraphModel` and run by its
 * executor, on the backend the entry registers. The backend is checked after
 * setBackend: a tfjs that fell back to another backend is an error, never a
 * quiet result.
 */
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel, version_converter, type GraphModel } from '@tensorflow/tfjs-converter';
import { TfjsGraphExecutor } from '../../tfjs/graph-executor.js';
import { WEBGPU_KERNELS_NOTE } from '../../tfjs/webgpu-kernels.js';
import { parseOnnxModel } from '../../../src/core/onnx/onnx-decode.js';
import type { TensorMap } from '../../../src/core/tensor.js';
import { fetchBytes, installPage, type PageTensor, type PageTensorMap } from './page-common.js';
import type { PageCapabilities, PageOpenRequest } from './protocol.js';

/** What a backend entry adds: how to prepare the backend, and what it can say about itself once active. */
export interface TfjsBackendSetup {
  readonly name: 'wasm' | 'webgl' | 'webgpu';
  readonly packageName: string;
  /** Version the package reports about itself; null where it exports none (the Node side adds the installed one). */
  readonly version: string | null;
  /** Before setBackend: wasm paths and thread count. */
  before(request: PageOpenRequest, caps: PageCapabilities): void;
  /** After setBackend: threads actually used (null on GPU backends), precision, notes. */
  after(caps: PageCapabilities): Promise<{ threads: number | null; precision: 'fp32' | 'fp16'; notes: string[] }>;
}

/** The GraphModel's signature: inputs and outputs by name, with the graph nodes they are. */
interface GraphModelRun {
  readonly model: GraphModel;
  readonly inputs: readonly (readonly [string, string])[];
  readonly outputs: readonly (readonly [string, string])[];
}

/** A page tensor as a tfjs tensor; int64 as int32 (tfjs has no int64), as in Node. */
function toTfjs(t: PageTensor): tf.Tensor {
  if (t.dtype === 'int64') return tf.tensor(Int32Array.from(t.data as BigInt64Array, Number), [...t.dims], 'int32');
  if (t.dtype === 'float32') return tf.tensor(t.data as Float32Array, [...t.dims], 'float32');
  return tf.tensor(t.data as Int32Array | Uint8Array, [...t.dims], t.dtype === 'bool' ? 'bool' : 'int32');
}

async function toPage(t: tf.Tensor): Promise<PageTensor> {
  const data = await t.data();
  if (t.dtype === 'int32') return { dtype: 'int32', dims: t.shape, data: data as Int32Array };
  if (t.dtype === 'bool') return { dtype: 'bool', dims: t.shape, data: Uint8Array.from(data as Uint8Array) };
  return { dtype: 'float32', dims: t.shape, data: data as Float32Array };
}

async function loadGraph(url: string): Promise<GraphModelRun> {
  const model = await loadGraphModel(url);
  const node = (name: string): string => name.replace(/:0$/, '');
  const signature = model.modelSignature as { inputs?: Record<string, { name: string }>; outputs?: Record<string, { name: string }> } | undefined;
  const inputs = Object.entries(signature?.inputs ?? {}).map(([k, v]) => [k, node(v.name)] as const);
  const outputs = Object.entries(signature?.outputs ?? {}).map(([k, v]) => [k, node(v.name)] as const);
  if (inputs.length === 0 || outputs.length === 0) throw new Error(`${url} has no signature naming its inputs and outputs`);
  return { model, inputs, outputs };
}

export function installTfjsPage(setup: TfjsBackendSetup): void {
  let executor: TfjsGraphExecutor | undefined;
  let graph: GraphModelRun | undefined;
  installPage<TensorMap>({
    async open(request, caps) {
      tf.enableProdMode();
      setup.before(request, caps);
      const t0 = performance.now();
      const ok = await tf.setBackend(setup.name);
      await tf.ready();
      const runtimeInitMs = performance.now() - t0;
      const active = tf.getBackend();
      if (!ok || active !== setup.name) throw new Error(`tfjs backend '${setup.name}' failed to initialise in the page (active: ${String(active)}); not falling back`);
      const own = await setup.after(caps);
      const t1 = performance.now();
      const native = request.executor === 'graph-model';
      if (native) graph = await loadGraph(request.modelUrl);
      else executor = new TfjsGraphExecutor(parseOnnxModel(await fetchBytes(request.modelUrl)));
      const sessionBuildMs = performance.now() - t1;
      return {
        backend: active,
        threads: own.threads,
        precision: own.precision,
        executor: native ? 'tfjs-converter GraphModel' : 'inferbench ONNX translator',
        versions: { '@tensorflow/tfjs-core': tf.version_core, ...(setup.version ? { [setup.packageName]: setup.version } : {}), ...(native ? { '@tensorflow/tfjs-converter': version_converter } : {}) },
        notes: [
          native ? "GraphModel fetched by tfjs-converter's loadGraphModel and run by its executor (model.execute): one tfjs op per graph node" : 'ONNX graph translated to tfjs ops by inferbench',
          'int64 tensors computed as int32 (tfjs has no int64)',
          ...(!native && setup.name === 'webgpu' ? [WEBGPU_KERNELS_NOTE] : []),
          ...own.notes,
        ],
        runtimeInitMs,
        sessionBuildMs,
      };
    },
    // The translator takes host tensors and reads its outputs back to the CPU (await data()), as in Node.
    prepare: (batch) => batch.tensors as unknown as TensorMap,
    async run(inputs) {
      if (graph) return { outputs: await runGraph(graph, inputs as unknown as PageTensorMap), forwardMs: null };
      if (!executor) throw new Error('no model opened');
      return { outputs: (await executor.run(inputs)) as unknown as PageTensorMap, forwardMs: null };
    },
    memory() {
      const m = tf.memory();
      return { numTensors: m.numTensors, numBytes: m.numBytes };
    },
    async dispose() {
      executor?.dispose();
      graph?.model.dispose();
    },
  });
}

/** One GraphModel call as in Node: feeds converted, model.execute, outputs read back, every tensor disposed. */
async function runGraph(graph: GraphModelRun, inputs: PageTensorMap): Promise<PageTensorMap> {
  const feeds: Record<string, tf.Tensor> = {};
  for (const [key, node] of graph.inputs) {
    const t = inputs[key];
    if (!t) throw new Error(`the model's input '${key}' is missing from the batch`);
    feeds[node] = toTfjs(t);
  }
  let outputs: tf.Tensor[] = [];
  try {
    const result = graph.model.execute(feeds, graph.outputs.map(([, node]) => node));
    outputs = Array.isArray(result) ? result : [result];
    const out: PageTensorMap = {};
    for (let i = 0; i < graph.outputs.length; i++) out[(graph.outputs[i] as readonly [string, string])[0]] = await toPage(outputs[i] as tf.Tensor);
    return out;
  } finally {
    tf.dispose([...Object.values(feeds), ...outputs]);
  }
}
