/**
 * A TfGraph as a TensorFlow SavedModel: `saved_model.pb` holding one
 * MetaGraphDef tagged `serve`, its GraphDef with every weight as a Const
 * node, and a `serving_default` SignatureDef naming the inputs and the
 * outputs. It is a graph-only (TF1-style) SavedModel: no variables, so no
 * checkpoint; TensorFlow's loader restores nothing when `variables/` holds
 * no index, and the empty folder is written because tools expect it.
 */
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

/** The SavedModel message of `graph` (exported for tests that read fields back). */
export function savedModelMessage(graph: TfGraph): SavedModelMessage {
  return {
    saved_model_schema_version: 1,
    meta_graphs: [
      {
        // meta_graph_version is the free-text provenance field; tensorflow_version is left to TensorFlow's own writers.
        meta_info_def: { meta_graph_version: graph.producer, tags: [SERVE_TAG], stripped_default_attrs: false },
        graph_def: { node: graph.nodes.map(nodeMessage), versions: { producer: GRAPH_DEF_PRODUCER } },
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
}

/** The bytes of `saved_model.pb`. */
export function savedModelBytes(graph: TfGraph): Uint8Array {
  if (graph.target !== 'saved-model') throw new Error('a SavedModel is written from a graph exported for saved-model (int64 kept)');
  return encodeSavedModel(savedModelMessage(graph));
}
