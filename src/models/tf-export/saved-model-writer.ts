/**
 * A TfGraph as a TensorFlow SavedModel: `saved_model.pb` holding one
 * MetaGraphDef tagged `serve`, its GraphDef, a `serving_default`
 * SignatureDef naming the inputs and the outputs, and a SaverDef; the
 * weights live in `variables/` (a V2 checkpoint, tensor-bundle.ts), as in a
 * TF1-style SavedModel TensorFlow writes. Each weight is a resource
 * variable (VarHandleOp) read by a ReadVariableOp under the weight's own
 * node name, so the graph's other nodes are unchanged; the saver's restore
 * op (RestoreV2 into AssignVariableOps, grouped by a NoOp) is what
 * TensorFlow's loader runs with the checkpoint's path fed to its filename
 * tensor. Tensors under VARIABLE_MIN_BYTES (shapes, axes, scalars, and
 * small weights such as biases) stay Const nodes, so
 * TensorFlow's shape inference and graph optimizer still see them.
 *
 * Why not every weight as a Const: TensorFlow then parses and copies a
 * GraphDef as large as the model and constant-folds over it on the first
 * run; for minilm's shape (90 MB) open and first run cost 17.7 CPU-s against
 * 1.5 with the checkpoint (`npm run bench:saved-model`, docs/benchmarks.md).
 */
import { BUNDLE_DATA_FILE, BUNDLE_INDEX_FILE, tensorBundle, type BundleTensor } from './tensor-bundle.js';
import { TF_DATA_TYPE_CODES, tensorBytes, type TfAttr, type TfGraph, type TfNode, type TfSignatureEntry } from './tf-graph.js';
import { encodeSavedModel, type AttrMessage, type NodeMessage, type SavedModelMessage, type ShapeMessage, type TensorInfoMessage } from './tf-proto.js';

/**
 * GraphDef version the file claims: TensorFlow 2.9's (the oldest
 * libtensorflow tfjs-node 4.x links); every op written exists there and
 * later TensorFlows accept older producers.
 */
export const GRAPH_DEF_PRODUCER = 1087;

/** The tag `tf.node.loadSavedModel` and `tf.saved_model.load` look for by default. */
export const SERVE_TAG = 'serve';
export const SIGNATURE_KEY = 'serving_default';

function shapeMessage(dims: readonly number[]): ShapeMessage {
  return { dim: dims.map((size) => ({ size })) };
}

function attrMessage(a: TfAttr): AttrMessage {
  switch (a.kind) {
    case 'type': return { type: TF_DATA_TYPE_CODES[a.value] };
    case 'i': return { i: a.value };
    case 'f': return { f: a.value };
    case 'b': return { b: a.value };
    case 'shape': return { shape: shapeMessage(a.value) };
    case 'list_i': return { list: { i: [...a.value] } };
    case 'list_s': return { list: { s: a.value.map((v) => new TextEncoder().encode(v)) } };
    case 'tensor':
      return { tensor: { dtype: TF_DATA_TYPE_CODES[a.value.dtype], tensor_shape: shapeMessage(a.value.dims), tensor_content: tensorBytes(a.value) } };
  }
}

function nodeMessage(n: TfNode): NodeMessage {
  return { name: n.name, op: n.op, input: [...n.inputs], attr: Object.fromEntries(Object.entries(n.attrs).map(([k, v]) => [k, attrMessage(v)])) };
}

function tensorInfo(e: TfSignatureEntry): TensorInfoMessage {
  return { name: e.tensor, dtype: TF_DATA_TYPE_CODES[e.dtype], tensor_shape: shapeMessage(e.shape) };
}

/**
 * Const tensors of at least this many bytes become checkpoint variables;
 * smaller ones stay in the graph. Why not every weight: TensorFlow's CPU
 * kernels (tfjs-node 4.22's libtensorflow, oneDNN on) gave gpt2-past and
 * xlm-roberta outputs up to 0.07 away from onnx-cpu when biases and
 * LayerNorm vectors were variables too (the kernel at fault not isolated;
 * constant operands take other oneDNN paths); 4 KiB moves every weight matrix and embedding
 * (all of the bytes that cost) and keeps those vectors constant.
 */
export const VARIABLE_MIN_BYTES = 4096;

/** Checkpoint prefix inside a SavedModel folder (kSavedModelVariablesDirectory / kSavedModelVariablesFilename). */
export const VARIABLES_PREFIX = 'variables/variables';

/** What the SavedModel writes: `saved_model.pb` and the checkpoint's two files under `variables/`. */
export interface SavedModelFiles {
  readonly savedModel: Uint8Array;
  /** Relative path → bytes (the data file as chunks, one per tensor). */
  readonly variables: ReadonlyMap<string, Uint8Array | readonly Uint8Array[]>;
}

/** TensorFlow's DT_STRING code (types.proto): the saver's file name and tensor names; the exporter's own graph never carries strings. */
const DT_STRING = 7;

const textBytes = (s: string): Uint8Array => new TextEncoder().encode(s);

function stringTensor(values: readonly string[], scalar = false): AttrMessage {
  return { tensor: { dtype: DT_STRING, tensor_shape: shapeMessage(scalar ? [] : [values.length]), string_val: values.map(textBytes) } };
}

interface Lifted {
  /** GraphDef nodes: the graph's, each large Const replaced by a ReadVariableOp of its variable, then the variables and the saver's nodes. */
  readonly nodes: NodeMessage[];
  readonly tensors: BundleTensor[];
  /** Null when no tensor is large enough to be a variable: TensorFlow refuses a SaveV2 of no tensors, so there is no saver and no checkpoint. */
  readonly saverDef: NonNullable<SavedModelMessage['meta_graphs'][number]['saver_def']> | null;
}

/**
 * Moves every large Const of `graph` into a variable restored from the
 * checkpoint: VarHandleOp `<name>/variable`, ReadVariableOp `<name>` (so
 * consumers keep their inputs), and the TF1 saver's `save/` nodes: the
 * filename Const the loader feeds, RestoreV2 with one AssignVariableOp per
 * variable under the NoOp `save/restore_all`, and SaveV2 behind
 * `save/control_dependency` (the SaverDef's save tensor, which Python's
 * Saver requires to be named).
 */
function liftWeights(graph: TfGraph): Lifted {
  const taken = new Set(graph.nodes.map((n) => n.name));
  const fresh = (base: string): string => {
    let name = base;
    for (let i = 1; taken.has(name); i++) name = `${base}_${i}`;
    taken.add(name);
    return name;
  };
  const nodes: NodeMessage[] = [];
  const variables: { handle: string; read: string; key: string; dtype: number }[] = [];
  const tensors: BundleTensor[] = [];
  for (const n of graph.nodes) {
    const value = n.op === 'Const' ? n.attrs['value'] : undefined;
    if (value?.kind !== 'tensor' || value.value.data.byteLength < VARIABLE_MIN_BYTES) {
      nodes.push(nodeMessage(n));
      continue;
    }
    const t = value.value;
    const dtype = TF_DATA_TYPE_CODES[t.dtype];
    const handle = fresh(`${n.name}/variable`);
    nodes.push({ name: handle, op: 'VarHandleOp', input: [], attr: { dtype: { type: dtype }, shape: { shape: shapeMessage(t.dims) }, shared_name: { s: textBytes(handle) } } });
    nodes.push({ name: n.name, op: 'ReadVariableOp', input: [handle], attr: { dtype: { type: dtype } } });
    variables.push({ handle, read: n.name, key: n.name, dtype });
    tensors.push({ key: n.name, dtype, dims: t.dims, bytes: tensorBytes(t) });
  }
  if (variables.length === 0) return { nodes, tensors, saverDef: null };
  const filename = fresh('save/Const');
  const names = fresh('save/tensor_names');
  const slices = fresh('save/shape_and_slices');
  const restore = fresh('save/RestoreV2');
  const save = fresh('save/SaveV2');
  const saveDone = fresh('save/control_dependency');
  const restoreAll = fresh('save/restore_all');
  const dtypes: AttrMessage = { list: { type: variables.map((v) => v.dtype) } };
  nodes.push(
    { name: filename, op: 'Const', input: [], attr: { dtype: { type: DT_STRING }, value: stringTensor(['model'], true) } },
    { name: names, op: 'Const', input: [], attr: { dtype: { type: DT_STRING }, value: stringTensor(variables.map((v) => v.key)) } },
    { name: slices, op: 'Const', input: [], attr: { dtype: { type: DT_STRING }, value: stringTensor(variables.map(() => '')) } },
    { name: save, op: 'SaveV2', input: [filename, names, slices, ...variables.map((v) => v.read)], attr: { dtypes } },
    { name: saveDone, op: 'Identity', input: [filename, `^${save}`], attr: { T: { type: DT_STRING } } },
    { name: restore, op: 'RestoreV2', input: [filename, names, slices], attr: { dtypes } },
  );
  const assigns = variables.map((v, i) => {
    const name = fresh(`save/AssignVariableOp_${i}`);
    nodes.push({ name, op: 'AssignVariableOp', input: [v.handle, `${restore}:${i}`], attr: { dtype: { type: v.dtype } } });
    return name;
  });
  nodes.push({ name: restoreAll, op: 'NoOp', input: assigns.map((a) => `^${a}`), attr: {} });
  // SaverDef.version 2: the V2 checkpoint format (tensor-bundle.ts).
  return { nodes, tensors, saverDef: { filename_tensor_name: `${filename}:0`, save_tensor_name: `${saveDone}:0`, restore_op_name: restoreAll, max_to_keep: 5, sharded: false, version: 2 } };
}

/** The SavedModel message of `graph` (exported for tests that read fields back). */
export function savedModelMessage(graph: TfGraph): SavedModelMessage {
  return savedModelParts(graph).message;
}

function savedModelParts(graph: TfGraph): { message: SavedModelMessage; tensors: BundleTensor[] } {
  const lifted = liftWeights(graph);
  const message: SavedModelMessage = {
    saved_model_schema_version: 1,
    meta_graphs: [
      {
        // meta_graph_version is the free-text provenance field; tensorflow_version is left to TensorFlow's own writers.
        meta_info_def: { meta_graph_version: graph.producer, tags: [SERVE_TAG], stripped_default_attrs: false },
        graph_def: { node: lifted.nodes, versions: { producer: GRAPH_DEF_PRODUCER } },
        ...(lifted.saverDef ? { saver_def: lifted.saverDef } : {}),
        signature_def: {
          [SIGNATURE_KEY]: {
            inputs: Object.fromEntries(graph.inputs.map((e) => [e.key, tensorInfo(e)])),
            outputs: Object.fromEntries(graph.outputs.map((e) => [e.key, tensorInfo(e)])),
            method_name: 'tensorflow/serving/predict',
          },
        },
      },
    ],
  };
  return { message, tensors: lifted.tensors };
}

/**
 * The earlier layout: one `saved_model.pb` with every weight as a Const and
 * no checkpoint. Written only by `npm run bench:saved-model`, which measures
 * what TensorFlow's open and first run cost for it against savedModelFiles.
 */
export function constOnlySavedModelBytes(graph: TfGraph): Uint8Array {
  const { message } = savedModelParts(graph);
  const meta = message.meta_graphs[0];
  if (!meta) throw new Error('no MetaGraphDef');
  const { saver_def: _saver, ...rest } = meta;
  return encodeSavedModel({ ...message, meta_graphs: [{ ...rest, graph_def: { ...meta.graph_def, node: graph.nodes.map(nodeMessage) } }] });
}

/** The bytes of `saved_model.pb` and of its checkpoint (`variables/variables.index`, `variables/variables.data-00000-of-00001`). */
export function savedModelFiles(graph: TfGraph): SavedModelFiles {
  if (graph.target !== 'saved-model') throw new Error('a SavedModel is written from a graph exported for saved-model (int64 kept)');
  const { message, tensors } = savedModelParts(graph);
  if (tensors.length === 0) return { savedModel: encodeSavedModel(message), variables: new Map() };
  const bundle = tensorBundle(tensors);
  const dir = VARIABLES_PREFIX.split('/')[0] as string;
  return { savedModel: encodeSavedModel(message), variables: new Map<string, Uint8Array | readonly Uint8Array[]>([[`${dir}/${BUNDLE_INDEX_FILE}`, bundle.index], [`${dir}/${BUNDLE_DATA_FILE}`, bundle.data]]) };
}
