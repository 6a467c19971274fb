/**
 * A TfGraph as a tfjs GraphModel, the format tensorflowjs_converter writes:
 * `model.json` with `format: "graph-model"`, `modelTopology` (the GraphDef
 * in protobuf's JSON form, as tfjs-converter's OperationMapper reads it),
 * `signature` (inputs and outputs by name), and `weightsManifest` naming
 * every Const node's tensor in the order of the weight shards beside it.
 * tfjs-converter takes a Const's value from the manifest, never from the
 * node, so the nodes keep only dtype and shape, as the converter's do.
 */
import { tensorBytes, type TfAttr, type TfGraph, type TfNode, type TfSignatureEntry, type TfTensorValue } from './tf-graph.js';
import { GRAPH_DEF_PRODUCER } from './saved-model-writer.js';

/** Shard size tensorflowjs_converter uses by default: 4 MiB. */
export const SHARD_BYTES = 4 * 1024 * 1024;

/** tfjs dtype names of the weights manifest. */
const MANIFEST_DTYPES = { DT_FLOAT: 'float32', DT_INT32: 'int32', DT_BOOL: 'bool', DT_INT64: 'int64' } as const;

function jsonShape(dims: readonly number[]): { dim?: { size: string }[] } {
  return dims.length === 0 ? {} : { dim: dims.map((d) => ({ size: String(d) })) };
}

function jsonAttr(a: TfAttr): unknown {
  switch (a.kind) {
    case 'type': return { type: a.value };
    case 'i': return { i: String(a.value) };
    case 'f': return { f: a.value };
    case 'b': return { b: a.value };
    case 'shape': return { shape: jsonShape(a.value) };
    case 'list_i': return { list: { i: a.value.map(String) } };
    // Protobuf's JSON form writes bytes as base64.
    case 'list_s': return { list: { s: a.value.map((v) => Buffer.from(v, 'utf8').toString('base64')) } };
    // The value lives in the weights; the node says only what it is.
    case 'tensor': return { tensor: { dtype: a.value.dtype, tensorShape: jsonShape(a.value.dims) } };
  }
}

function jsonNode(n: TfNode): unknown {
  return { name: n.name, op: n.op, input: [...n.inputs], attr: Object.fromEntries(Object.entries(n.attrs).map(([k, v]) => [k, jsonAttr(v)])) };
}

function signatureEntry(e: TfSignatureEntry): unknown {
  return { name: e.tensor, dtype: e.dtype, tensorShape: jsonShape(e.shape) };
}

/** The files of a GraphModel: `model.json`'s object and the shards by file name. */
export interface GraphModelFiles {
  readonly modelJson: Record<string, unknown>;
  readonly shards: ReadonlyMap<string, Uint8Array>;
}

/** Shard file names as tensorflowjs_converter writes them. */
function shardName(i: number, n: number): string {
  return `group1-shard${i + 1}of${n}.bin`;
}

/** The files of `graph` as a GraphModel, its weights cut into shards of at most `shardBytes` (tests use small shards). */
export function graphModelFiles(graph: TfGraph, generatedBy: string, shardBytes = SHARD_BYTES): GraphModelFiles {
  if (graph.target !== 'graph-model') throw new Error('a GraphModel is written from a graph exported for graph-model (int64 as int32)');
  const weights: { name: string; shape: number[]; dtype: string }[] = [];
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (const n of graph.nodes) {
    if (n.op !== 'Const') continue;
    const attr = n.attrs['value'];
    if (attr?.kind !== 'tensor') continue;
    const t: TfTensorValue = attr.value;
    weights.push({ name: n.name, shape: [...t.dims], dtype: MANIFEST_DTYPES[t.dtype] });
    const bytes = tensorBytes(t);
    chunks.push(bytes);
    total += bytes.length;
  }
  const all = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    all.set(c, offset);
    offset += c.length;
  }
  const count = Math.max(1, Math.ceil(total / shardBytes));
  const shards = new Map<string, Uint8Array>();
  for (let i = 0; i < count; i++) shards.set(shardName(i, count), all.subarray(i * shardBytes, Math.min(total, (i + 1) * shardBytes)));
  const modelJson = {
    format: 'graph-model',
    generatedBy,
    convertedBy: generatedBy,
    modelTopology: { node: graph.nodes.map(jsonNode), library: {}, versions: { producer: GRAPH_DEF_PRODUCER } },
    signature: {
      inputs: Object.fromEntries(graph.inputs.map((e) => [e.key, signatureEntry(e)])),
      outputs: Object.fromEntries(graph.outputs.map((e) => [e.key, signatureEntry(e)])),
    },
    weightsManifest: [{ paths: [...shards.keys()], weights }],
  };
  return { modelJson, shards };
}
