import type { ModelProto, ValueInfoProto } from '../core/onnx/onnx-proto.js';
import type { HostDType } from '../core/tensor.js';
import type { InputSpec } from './benchmark-model.js';
import { UserError } from '../core/errors.js';
import { stat } from 'node:fs/promises';
import { readRegularFile } from '../core/regular-file.js';
import { concatBytes, lengthField, wireFields } from '../core/onnx/protobuf-wire.js';

type OnnxProto = typeof import('../core/onnx/onnx-proto.js');

/**
 * onnx-proto's decoder (a 330 KB module, about 0.1 s of CPU), loaded with
 * the first signature read instead of at every CLI start: a command that
 * stops at a bad flag never reads a model.
 */
function onnxProto(): Promise<OnnxProto> {
  return import('../core/onnx/onnx-proto.js');
}

function hostDTypes({ onnx }: OnnxProto): Partial<Record<number, HostDType>> {
  return {
    [onnx.TensorProto.DataType.FLOAT]: 'float32',
    [onnx.TensorProto.DataType.INT64]: 'int64',
    [onnx.TensorProto.DataType.INT32]: 'int32',
    [onnx.TensorProto.DataType.BOOL]: 'bool',
  };
}

/** Graph inputs and outputs of an ONNX file. */
export interface OnnxSignature {
  readonly inputs: InputSpec[];
  readonly outputs: InputSpec[];
}

function toSpec(v: ValueInfoProto, dtypes: Partial<Record<number, HostDType>>): InputSpec {
  const tensor = v.type?.tensorType;
  const dtype = dtypes[tensor?.elemType ?? 0] ?? 'float32';
  const shape = (tensor?.shape?.dim ?? []).map((d) => (d.dimParam ? d.dimParam : Number(d.dimValue ?? 0)));
  return { name: v.name ?? '', dtype, shape };
}

/**
 * Signatures already decoded, by path and the file's identity (device,
 * inode, size, mtime). One model open asks for the signature several times
 * (task detection, the model's inputs, feature extraction's outputs), and
 * each read decoded the whole file (every weight, 90 MB for minilm): the
 * second ask is answered from here unless the file changed in between.
 */
const decoded = new Map<string, { readonly identity: string; readonly signature: Promise<OnnxSignature> }>();

/**
 * Reads the signature from the ONNX file itself, so a model's input list
 * (with or without token_type_ids, say) is never guessed from its family.
 * A file that changed since the last read (another identity) is read again.
 */
export async function readOnnxSignature(path: string): Promise<OnnxSignature> {
  // stat follows links as the read does; a failed stat leaves the error to the read below, which names it.
  const info = await stat(path).catch(() => null);
  const identity = info?.isFile() ? `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : null;
  const known = decoded.get(path);
  if (identity !== null && known?.identity === identity) return copy(await known.signature);
  const signature = decodeSignature(path);
  if (identity === null) return signature;
  decoded.set(path, { identity, signature });
  // A failed read is not kept: the next call reads the file again and reports what it finds then.
  signature.catch(() => {
    if (decoded.get(path)?.signature === signature) decoded.delete(path);
  });
  return copy(await signature);
}

/** A copy per caller, so one caller's edit of its lists never shows in another's. */
function copy(s: OnnxSignature): OnnxSignature {
  const specs = (list: InputSpec[]): InputSpec[] => list.map((v) => ({ ...v, shape: [...v.shape] }));
  return { inputs: specs(s.inputs), outputs: specs(s.outputs) };
}

const MODEL_GRAPH = 7;
const GRAPH_INITIALIZER = 5;
const GRAPH_INPUT = 11;
const GRAPH_OUTPUT = 12;
const TENSOR_NAME = 8;

/**
 * A ModelProto holding only what the signature reads: the graph's inputs,
 * outputs and its initializers' names. Decoding the whole file copied every
 * weight (about 1.2 CPU-s for minilm's 90 MB) to read a few names; the
 * wire format is walked instead (a truncated or garbled file still fails
 * here, at the top level and in the graph), and the weights are skipped.
 */
function signatureOnly(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const [field, wire, start, end] of wireFields(bytes)) {
    if (field !== MODEL_GRAPH || wire !== 2) continue;
    const graph = bytes.subarray(start, end);
    for (const [gField, gWire, gStart, gEnd] of wireFields(graph)) {
      if (gWire !== 2) continue;
      if (gField === GRAPH_INPUT || gField === GRAPH_OUTPUT) {
        parts.push(lengthField(gField, gEnd - gStart), graph.subarray(gStart, gEnd));
      } else if (gField === GRAPH_INITIALIZER) {
        const name = wireFields(graph.subarray(gStart, gEnd)).find(([f, w]) => f === TENSOR_NAME && w === 2);
        const nameBytes = name ? graph.subarray(gStart + name[2], gStart + name[3]) : new Uint8Array(0);
        const tensor = concatBytes([lengthField(TENSOR_NAME, nameBytes.length), nameBytes]);
        parts.push(lengthField(GRAPH_INITIALIZER, tensor.length), tensor);
      }
    }
  }
  if (parts.length === 0) return new Uint8Array(0);
  const graphLength = parts.reduce((n, p) => n + p.length, 0);
  return concatBytes([lengthField(MODEL_GRAPH, graphLength), ...parts]);
}


async function decodeSignature(path: string): Promise<OnnxSignature> {
  // Not a regular file (a FIFO would block forever): refused by name before reading.
  const bytes = await readRegularFile(path);
  const fix = 'export the model again (e.g. with optimum-cli export onnx)';
  if (bytes.length === 0) throw new UserError(`${path} is empty (0 bytes), not an ONNX model`, fix);
  const proto = await onnxProto();
  let model: ModelProto;
  try {
    model = proto.decodeModel(signatureOnly(bytes));
  } catch (err) {
    throw new UserError(`${path} is not a readable ONNX model: ${(err as Error).message}`, fix);
  }
  const graph = model.graph;
  if (!graph || (graph.input ?? []).length === 0) throw new UserError(`${path} holds no ONNX graph with inputs (${bytes.length} bytes)`, fix);
  const initializers = new Set((graph?.initializer ?? []).map((t) => t.name));
  const dtypes = hostDTypes(proto);
  return {
    inputs: (graph?.input ?? []).filter((v) => !initializers.has(v.name ?? '')).map((v) => toSpec(v, dtypes)),
    outputs: (graph?.output ?? []).map((v) => toSpec(v, dtypes)),
  };
}
