/**
 * Sessions on tfjs's own executors, as tfjs users run models:
 *
 * - a GraphModel (`model.json` + weight shards) through tfjs-converter's
 *   `loadGraphModel`, whose GraphExecutor runs each node as a tfjs op on
 *   the active backend;
 * - a SavedModel through tfjs-node's `tf.node.loadSavedModel`: the whole
 *   graph is one TF_SessionRun, with TensorFlow's graph optimizer and its
 *   own kernels and thread pools.
 *
 * As on the translator's rows, a call converts the host feeds to tfjs
 * tensors and resolves once every output is in host memory: the three tfjs
 * executors are timed around the same work. (No `prepareCall`: tfjs tensors
 * made for batches a stopped loop never runs would stay allocated.)
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CellSkip } from '../../src/core/errors.js';
import { concatBytes } from '../../src/core/onnx/protobuf-wire.js';
import type { EngineSession, OpProfiler, SessionDescription } from '../../src/core/engine-session.js';
import { tfProfileProfiler, type ExecuteWrapper } from './tfjs-profile.js';
import { hostTensor, type HostTensor, type TensorMap } from '../../src/core/tensor.js';
import { activate, packageVersion, tfjsMemory, webGpuCpuForward, WEBGPU_FORWARD_NOTE, WEBGPU_NO_FORWARD_NOTE, type PreparedBackend, type Tf } from './tfjs-backend.js';
import { int64ToInt32 } from './op-values.js';
import { interOpThreadsReadBack } from './native-library.js';

type Tensor = import('@tensorflow/tfjs-core').Tensor;
type NamedTensors = Record<string, Tensor>;

export const GRAPH_MODEL_EXECUTOR = 'tfjs-converter GraphModel';
export const SAVED_MODEL_EXECUTOR = 'TensorFlow session (SavedModel)';

/** A host tensor as a tfjs tensor; int64 becomes int32, each value checked (tfjs has no int64). */
function toTfjs(tf: Tf, name: string, t: HostTensor): Tensor {
  switch (t.dtype) {
    case 'int64': return tf.tensor(int64ToInt32(t.data as BigInt64Array, name), [...t.dims], 'int32');
    case 'int32': return tf.tensor(t.data as Int32Array, [...t.dims], 'int32');
    case 'bool': return tf.tensor(t.data as Uint8Array, [...t.dims], 'bool');
    default: return tf.tensor(t.data as Float32Array, [...t.dims], 'float32');
  }
}

async function toHost(t: Tensor): Promise<HostTensor> {
  const data = await t.data();
  // tfjs-node hands a SavedModel's int64 output back as a BigInt64Array under dtype 'int32'.
  if ((data as unknown) instanceof BigInt64Array) return hostTensor('int64', t.shape, data as unknown as BigInt64Array);
  if (t.dtype === 'int32') return hostTensor('int32', t.shape, data as Int32Array);
  if (t.dtype === 'bool') return hostTensor('bool', t.shape, Uint8Array.from(data as Uint8Array));
  return hostTensor('float32', t.shape, data as Float32Array);
}

/** What a native session does per call: run the executor on tfjs tensors keyed by signature name. */
type Execute = (feeds: NamedTensors) => NamedTensors;

/** The session both executors share: feeds converted and outputs read back inside each call. */
class NativeSession implements EngineSession {
  constructor(
    private readonly tf: Tf,
    private readonly backendName: string,
    private readonly inputNames: readonly string[],
    private readonly execute: Execute,
    private readonly description: SessionDescription,
    private readonly release: () => void,
  ) {}

  /** `run --profile` only: how the executor call is wrapped (tf.profile); null in every timed run. */
  private wrapper: ExecuteWrapper = null;

  /** `run --profile`: tf.profile's kernels on this opened model (tfjs-profile.ts). */
  async profiler(): Promise<OpProfiler> {
    return tfProfileProfiler(this.tf, (w) => { this.wrapper = w; }, (inputs) => this.run(inputs));
  }

  private feeds(inputs: TensorMap): NamedTensors {
    const feeds: NamedTensors = {};
    for (const name of this.inputNames) {
      const t = inputs[name];
      if (!t) throw new Error(`the model's input '${name}' is missing from the batch (it has ${Object.keys(inputs).join(', ')})`);
      feeds[name] = toTfjs(this.tf, name, t);
    }
    return feeds;
  }

  async run(inputs: TensorMap): Promise<TensorMap> {
    // tfjs-core has one global backend; another session may have switched it since open.
    if (this.tf.engine().backendName !== this.backendName) await activate(this.tf, this.backendName);
    // tfjs-converter's executor needs tfjs-webgpu's CPU forwarding (WEBGPU_FORWARD_NOTE, on the row).
    webGpuCpuForward(this.tf, this.backendName, true);
    const feeds = this.feeds(inputs);
    let outputs: NamedTensors = {};
    try {
      outputs = this.wrapper ? await this.wrapper(() => this.execute(feeds)) : this.execute(feeds);
      const out: TensorMap = {};
      for (const [name, t] of Object.entries(outputs)) out[name] = await toHost(t);
      return out;
    } finally {
      this.tf.dispose([...Object.values(feeds), ...Object.values(outputs)]);
    }
  }

  describe(): SessionDescription {
    return this.description;
  }

  memory(): { numTensors: number; numBytes: number } {
    return tfjsMemory(this.tf);
  }

  async dispose(): Promise<void> {
    this.release();
  }
}

/** model.json's fields the loader reads. */
interface ModelJson {
  readonly format?: string;
  readonly modelTopology?: unknown;
  readonly weightsManifest?: { paths: string[]; weights: unknown[] }[];
  readonly signature?: { inputs?: Record<string, { name: string }>; outputs?: Record<string, { name: string }> };
}

/** Node name of a signature tensor (`input_ids:0` → `input_ids`). */
function nodeOf(tensor: string): string {
  return tensor.replace(/:0$/, '');
}

/**
 * A GraphModel from disk through tfjs-converter's `loadGraphModel`, with an
 * IO handler that reads model.json and its shards (tfjs-core's own file
 * handler lives in tfjs-node, which the wasm and cpu engines do not load).
 */
export async function openGraphModelSession(prepared: PreparedBackend, modelJsonPath: string): Promise<EngineSession> {
  const { tf } = prepared;
  const converter = await import('@tensorflow/tfjs-converter');
  let json: ModelJson;
  try {
    json = JSON.parse(await readFile(modelJsonPath, 'utf8')) as ModelJson;
  } catch (err) {
    throw new Error(`cannot read the GraphModel ${modelJsonPath}: ${(err as Error).message}`);
  }
  if (json.format !== 'graph-model' || !json.modelTopology) throw new CellSkip(`${modelJsonPath} is not a tfjs GraphModel (format ${String(json.format)}; a LayersModel needs tf.loadLayersModel)`);
  const dir = dirname(modelJsonPath);
  const handler = {
    load: () => tf.io.getModelArtifactsForJSON(json as import('@tensorflow/tfjs-core').io.ModelJSON, async (manifest) => {
      // One copy of the weights: each shard is read into its place in the buffer tfjs takes (not concatenated, then sliced).
      const buffers = await Promise.all(manifest.flatMap((g) => g.paths).map((p) => readFile(join(dir, p))));
      return [tf.io.getWeightSpecs(manifest), concatBytes(buffers).buffer as ArrayBuffer];
    }),
  };
  await activate(tf, prepared.backend);
  const model = await converter.loadGraphModel(handler);
  const inputs = Object.entries(json.signature?.inputs ?? {}).map(([key, info]) => [key, nodeOf(info.name)] as const);
  const outputs = Object.entries(json.signature?.outputs ?? {}).map(([key, info]) => [key, nodeOf(info.name)] as const);
  if (inputs.length === 0 || outputs.length === 0) throw new CellSkip(`${modelJsonPath} has no signature naming its inputs and outputs`);
  // Read back from what opened: the executor class tfjs-converter built for this model.
  const executorClass = (model as unknown as { executor?: { constructor?: { name?: string } } }).executor?.constructor?.name ?? 'unknown';
  const description: SessionDescription = {
    ...prepared.description,
    executor: GRAPH_MODEL_EXECUTOR,
    versions: { ...prepared.description.versions, '@tensorflow/tfjs-converter': converter.version_converter ?? packageVersion('@tensorflow/tfjs-converter') },
    notes: [
      `GraphModel run by tfjs-converter's ${executorClass} (loadGraphModel, model.execute): one tfjs op per graph node`,
      'int64 tensors held as int32 (tfjs has no int64)',
      ...(prepared.description.notes ?? []).map((n) => (n === WEBGPU_NO_FORWARD_NOTE ? WEBGPU_FORWARD_NOTE : n)),
    ],
  };
  const outputNodes = outputs.map(([, node]) => node);
  const execute: Execute = (feeds) => {
    const byNode: NamedTensors = {};
    for (const [key, node] of inputs) byNode[node] = feeds[key] as Tensor;
    const result = model.execute(byNode, outputNodes);
    const list = Array.isArray(result) ? result : [result];
    return Object.fromEntries(outputs.map(([key], i) => [key, list[i] as Tensor]));
  };
  return new NativeSession(tf, prepared.backend, inputs.map(([key]) => key), execute, description, () => model.dispose());
}

/** The part of tfjs-node's TFSavedModel the session uses. */
interface SavedModelLike {
  readonly sessionId: number;
  readonly signature: { inputs: Record<string, { tfDtype: string }>; outputs: Record<string, { tfDtype: string }> };
  predict(inputs: NamedTensors): NamedTensors | Tensor | Tensor[];
  dispose(): void;
}

interface NodeNamespace {
  loadSavedModel(path: string, tags?: string[], signature?: string): Promise<SavedModelLike>;
  getNumOfSavedModels(): number;
}

/**
 * A SavedModel through `tf.node.loadSavedModel` (tfjs-node or tfjs-node-gpu,
 * whichever `prepared` loaded): tags `serve`, signature `serving_default`.
 */
export async function openSavedModelSession(prepared: PreparedBackend, pkg: string, savedModelPbPath: string): Promise<EngineSession> {
  const { tf } = prepared;
  const mod = (await import(pkg)) as { node?: NodeNamespace; default?: { node?: NodeNamespace } };
  const node = mod.node ?? mod.default?.node;
  if (!node) throw new Error(`${pkg} has no tf.node namespace (loadSavedModel)`);
  const before = node.getNumOfSavedModels();
  const poolBefore = interOpThreadsReadBack();
  const model = await node.loadSavedModel(dirname(savedModelPbPath), ['serve'], 'serving_default');
  // A TensorFlow session runs on the process's session inter-op pool (its tf_Compute threads), made by the first session opened.
  const poolAfter = interOpThreadsReadBack();
  const pool = poolBefore !== null && poolAfter !== null ? (poolAfter > poolBefore ? `its inter-op pool: ${poolAfter - poolBefore} tf_Compute thread(s) (read back)` : 'the process\'s session inter-op pool, made by an earlier session') : 'session pools not readable here';
  // Read back: the binding holds one more TF session, and the model has its id.
  const sessions = node.getNumOfSavedModels();
  const inputKeys = Object.keys(model.signature.inputs);
  const outputKeys = Object.keys(model.signature.outputs);
  const int64Outputs = outputKeys.filter((k) => model.signature.outputs[k]?.tfDtype === 'DT_INT64');
  const int64Inputs = inputKeys.filter((k) => model.signature.inputs[k]?.tfDtype === 'DT_INT64');
  const description: SessionDescription = {
    ...prepared.description,
    executor: SAVED_MODEL_EXECUTOR,
    notes: [
      `SavedModel run by tf.node.loadSavedModel: one TF_SessionRun per batch (TensorFlow session ${model.sessionId}, ${sessions - before >= 1 ? 'new' : 'shared'}), TensorFlow's graph optimizer, kernels and thread pools; ${pool}`,
      ...(int64Inputs.length > 0 ? [`int64 inputs ${int64Inputs.join(', ')}: tfjs-node widens the int32 feeds on each call (negative values are refused: it does not sign-extend them)`] : []),
      ...(int64Outputs.length > 0 ? [`int64 outputs ${int64Outputs.join(', ')} read back from tfjs-node's BigInt64Array`] : []),
      ...(prepared.description.notes ?? []),
    ],
  };
  const execute: Execute = (feeds) => {
    for (const name of int64Inputs) {
      // tfjs-node's int32 → int64 widening drops the sign: -1 would arrive as 4294967295, so a wrong answer is refused instead.
      const data = (feeds[name] as Tensor).dataSync();
      if (data.some((v) => (v as number) < 0)) throw new Error(`input '${name}' holds negative values, which tfjs-node 4.22 feeds to an int64 SavedModel input without sign extension; export the model with int32 inputs (inferbench export does)`);
    }
    const result = model.predict(feeds);
    if (result instanceof tf.Tensor) return { [outputKeys[0] as string]: result };
    if (Array.isArray(result)) return Object.fromEntries(outputKeys.map((k, i) => [k, result[i] as Tensor]));
    return result;
  };
  return new NativeSession(tf, prepared.backend, inputKeys, execute, description, () => model.dispose());
}
