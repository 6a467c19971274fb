/**
 * ONNX files decoded into plain TypeScript values (typed arrays, tagged
 * attributes), detached from protobufjs: what the tfjs translator runs, what
 * the TensorFlow exporter lowers, what `inspect` counts. One decoder, below
 * engines/ and src/models/, so every reader of a graph sees the same dtypes,
 * dims and attribute types. Bytes are decoded by onnx-proto.ts; the
 * proto-level reader and writer (for tools that edit a graph and write it
 * back) is onnx-file.ts beside it.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { onnx as OnnxNs } from 'onnx-proto';
import { halfToFloat } from '../tensor.js';
import { decodeModel, onnx } from './onnx-proto.js';
import { HOST_LITTLE_ENDIAN } from './onnx-builder.js';

/** ONNX element types by name; tfjs maps most of them onto float32/int32/bool later. */
export type OnnxDType =
  | 'float32'
  | 'float16'
  | 'bfloat16'
  | 'float64'
  | 'int8'
  | 'uint8'
  | 'int16'
  | 'uint16'
  | 'int32'
  | 'uint32'
  | 'int64'
  | 'uint64'
  | 'bool'
  | 'string'
  | 'complex64'
  | 'complex128'
  | 'undefined';

/** TensorProto.DataType enum values in order, so `DTYPE_BY_CODE[code]` names them. */
const DTYPE_BY_CODE: readonly OnnxDType[] = [
  'undefined', 'float32', 'uint8', 'int8', 'uint16', 'int16', 'int32', 'int64',
  'string', 'bool', 'float16', 'float64', 'uint32', 'uint64', 'complex64', 'complex128', 'bfloat16',
];

/** The ONNX dtype name for a TensorProto.DataType code; unknown codes read as 'undefined'. */
export function onnxDTypeFromCode(code: number): OnnxDType {
  return DTYPE_BY_CODE[code] ?? 'undefined';
}

/**
 * Decoded tensor payload. Narrow integer types widen to Int32Array and
 * float16/bfloat16 to Float32Array because nothing downstream computes in them;
 * int64 keeps BigInt64Array so range checks see the true values.
 */
export type OnnxTensorData = Float32Array | Float64Array | Int32Array | BigInt64Array | Uint8Array;

/** An initializer or a tensor attribute, decoded into a typed array. */
export interface OnnxTensor {
  readonly name: string;
  readonly dtype: OnnxDType;
  readonly dims: readonly number[];
  readonly data: OnnxTensorData;
}

/** A graph input or output. `dims` is null when the file declares no shape; entries are numbers, symbolic names, or null. */
export interface OnnxValueInfo {
  readonly name: string;
  readonly dtype: OnnxDType;
  readonly dims: readonly (number | string | null)[] | null;
}

/** A node attribute, tagged so handlers cannot confuse an int with a float. */
export type OnnxAttribute =
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'int'; readonly value: number }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'tensor'; readonly value: OnnxTensor }
  | { readonly type: 'floats'; readonly value: readonly number[] }
  | { readonly type: 'ints'; readonly value: readonly number[] }
  | { readonly type: 'strings'; readonly value: readonly string[] }
  | { readonly type: 'unsupported'; readonly value: string };

/** A graph node with attributes decoded, detached from protobufjs so handlers stay plain TypeScript. */
export interface OnnxNode {
  /** The node's name, or `<opType>_<index>` when the file leaves it empty, so errors can always point at a node. */
  readonly name: string;
  readonly opType: string;
  readonly domain: string;
  /** Input names; an empty string marks an omitted optional input, as in ONNX. */
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attributes: ReadonlyMap<string, OnnxAttribute>;
}

/** The parts of an ONNX model the translator needs, decoupled from protobufjs classes. */
export interface OnnxModel {
  readonly irVersion: number;
  /** Version of the default (ai.onnx) opset; ops change semantics across versions. */
  readonly opset: number;
  readonly producer: string;
  /** Graph inputs that are not initializers (older exporters list weights as inputs too). */
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
  readonly initializers: ReadonlyMap<string, OnnxTensor>;
  readonly nodes: readonly OnnxNode[];
}

type LongLike = number | { toNumber(): number; toString(): string };

function toNumber(v: LongLike | null | undefined): number {
  if (v == null) return 0;
  return typeof v === 'number' ? v : v.toNumber();
}

function toBigInt(v: LongLike): bigint {
  return typeof v === 'number' ? BigInt(v) : BigInt(v.toString());
}

/** Copies raw little-endian bytes into the typed array of `dtype`; a DataView keeps it correct on any host and alignment. */
function decodeRaw(dtype: OnnxDType, raw: Uint8Array, count: number, name: string): OnnxTensorData {
  const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const need = (bytes: number): void => {
    if (raw.byteLength < count * bytes) {
      throw new Error(`ONNX tensor '${name}' has ${raw.byteLength} bytes of raw data but needs ${count * bytes}`);
    }
  };
  // A little-endian host holds these dtypes as the file does: one aligned copy instead of a DataView read per element (22 M for minilm).
  if (HOST_LITTLE_ENDIAN && (dtype === 'float32' || dtype === 'int32' || dtype === 'float64' || dtype === 'int64')) {
    const width = dtype === 'float64' || dtype === 'int64' ? 8 : 4;
    need(width);
    // Uint8Array's slice copies into a fresh, aligned buffer (a Buffer's own slice would be a view into a shared pool).
    const copy = Uint8Array.prototype.slice.call(raw, 0, count * width).buffer;
    return dtype === 'float32' ? new Float32Array(copy) : dtype === 'int32' ? new Int32Array(copy) : dtype === 'float64' ? new Float64Array(copy) : new BigInt64Array(copy);
  }
  switch (dtype) {
    case 'float32': { need(4); const out = new Float32Array(count); for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true); return out; }
    case 'float64': { need(8); const out = new Float64Array(count); for (let i = 0; i < count; i++) out[i] = view.getFloat64(i * 8, true); return out; }
    case 'float16': { need(2); const out = new Float32Array(count); for (let i = 0; i < count; i++) out[i] = halfToFloat(view.getUint16(i * 2, true)); return out; }
    case 'bfloat16': { need(2); const out = new Float32Array(count); const tmp = new DataView(new ArrayBuffer(4)); for (let i = 0; i < count; i++) { tmp.setUint32(0, view.getUint16(i * 2, true) << 16); out[i] = tmp.getFloat32(0); } return out; }
    case 'int64': case 'uint64': { need(8); const out = new BigInt64Array(count); for (let i = 0; i < count; i++) out[i] = view.getBigInt64(i * 8, true); return out; }
    case 'int32': { need(4); const out = new Int32Array(count); for (let i = 0; i < count; i++) out[i] = view.getInt32(i * 4, true); return out; }
    case 'uint32': { need(4); const out = new Float64Array(count); for (let i = 0; i < count; i++) out[i] = view.getUint32(i * 4, true); return out; }
    case 'int16': { need(2); const out = new Int32Array(count); for (let i = 0; i < count; i++) out[i] = view.getInt16(i * 2, true); return out; }
    case 'uint16': { need(2); const out = new Int32Array(count); for (let i = 0; i < count; i++) out[i] = view.getUint16(i * 2, true); return out; }
    case 'int8': { need(1); const out = new Int32Array(count); for (let i = 0; i < count; i++) out[i] = view.getInt8(i); return out; }
    case 'uint8': { need(1); const out = new Int32Array(count); for (let i = 0; i < count; i++) out[i] = view.getUint8(i); return out; }
    case 'bool': { need(1); return raw.slice(0, count); }
    default: throw new Error(`ONNX tensor '${name}' has dtype ${dtype}, which inferbench cannot decode`);
  }
}

/** Decodes the typed repeated fields (float_data, int32_data, …) used when raw_data is absent. */
function decodeTyped(t: OnnxNs.ITensorProto, dtype: OnnxDType, count: number, name: string): OnnxTensorData {
  const pick = <T>(values: T[] | null | undefined): T[] => {
    const v = values ?? [];
    if (v.length !== count) throw new Error(`ONNX tensor '${name}' has ${v.length} values but dims need ${count}`);
    return v;
  };
  switch (dtype) {
    case 'float32': return Float32Array.from(pick(t.floatData));
    case 'float64': return Float64Array.from(pick(t.doubleData));
    case 'int64': return BigInt64Array.from(pick(t.int64Data), toBigInt);
    case 'uint64': return BigInt64Array.from(pick(t.uint64Data), toBigInt);
    case 'uint32': return Float64Array.from(pick(t.uint64Data), toNumber);
    case 'int32': case 'int16': case 'uint16': case 'int8': case 'uint8': return Int32Array.from(pick(t.int32Data));
    case 'bool': return Uint8Array.from(pick(t.int32Data), (v) => (v ? 1 : 0));
    case 'float16': return Float32Array.from(pick(t.int32Data), halfToFloat);
    case 'bfloat16': return Float32Array.from(pick(t.int32Data), (v) => new Float32Array(new Uint32Array([v << 16]).buffer)[0] ?? 0);
    default: throw new Error(`ONNX tensor '${name}' has dtype ${dtype}, which inferbench cannot decode`);
  }
}

/** Reads external-data files named by a tensor, relative to the model's folder. */
type ExternalReader = (location: string, offset: number, length: number | null) => Uint8Array;

function decodeTensor(t: OnnxNs.ITensorProto, readExternal: ExternalReader | null, fallbackName = ''): OnnxTensor {
  const name = t.name || fallbackName;
  const dtype = onnxDTypeFromCode(t.dataType ?? 0);
  const dims = (t.dims ?? []).map(toNumber);
  const count = dims.reduce((a, b) => a * b, 1);
  let data: OnnxTensorData;
  if (t.dataLocation === onnx.TensorProto.DataLocation.EXTERNAL) {
    const entries = new Map((t.externalData ?? []).map((e) => [e.key ?? '', e.value ?? '']));
    const location = entries.get('location');
    if (!location || !readExternal) throw new Error(`ONNX tensor '${name}' refers to external data that cannot be read`);
    const length = entries.has('length') ? Number(entries.get('length')) : null;
    data = decodeRaw(dtype, readExternal(location, Number(entries.get('offset') ?? 0), length), count, name);
  } else if (t.rawData && t.rawData.byteLength > 0) {
    data = decodeRaw(dtype, t.rawData, count, name);
  } else {
    data = decodeTyped(t, dtype, count, name);
  }
  return { name, dtype, dims, data };
}

function decodeAttribute(a: OnnxNs.IAttributeProto, readExternal: ExternalReader | null): OnnxAttribute {
  const T = onnx.AttributeProto.AttributeType;
  const decoder = new TextDecoder();
  let type = a.type ?? T.UNDEFINED;
  if (type === T.UNDEFINED) {
    // IR < 4 files may omit the type; infer it from the field that is set.
    if (a.t) type = T.TENSOR;
    else if (a.ints && a.ints.length) type = T.INTS;
    else if (a.floats && a.floats.length) type = T.FLOATS;
    else if (a.strings && a.strings.length) type = T.STRINGS;
    else if (a.s && a.s.length) type = T.STRING;
    else if (a.f) type = T.FLOAT;
    else type = T.INT;
  }
  switch (type) {
    case T.FLOAT: return { type: 'float', value: a.f ?? 0 };
    case T.INT: return { type: 'int', value: toNumber(a.i) };
    case T.STRING: return { type: 'string', value: decoder.decode(a.s ?? new Uint8Array()) };
    case T.TENSOR: return { type: 'tensor', value: decodeTensor(a.t ?? {}, readExternal, a.name ?? '') };
    case T.FLOATS: return { type: 'floats', value: [...(a.floats ?? [])] };
    case T.INTS: return { type: 'ints', value: (a.ints ?? []).map(toNumber) };
    case T.STRINGS: return { type: 'strings', value: (a.strings ?? []).map((s) => decoder.decode(s)) };
    default: return { type: 'unsupported', value: T[type] ?? String(type) };
  }
}

function decodeValueInfo(v: OnnxNs.IValueInfoProto): OnnxValueInfo {
  const tensorType = v.type?.tensorType;
  const shape = tensorType?.shape;
  return {
    name: v.name ?? '',
    dtype: onnxDTypeFromCode(tensorType?.elemType ?? 0),
    dims: shape
      ? (shape.dim ?? []).map((d) => (d.dimParam ? d.dimParam : d.dimValue != null && toNumber(d.dimValue) > 0 ? toNumber(d.dimValue) : null))
      : null,
  };
}

/**
 * Decodes ONNX bytes. `readExternal` is only needed for models that keep
 * weights in side files; without it such tensors fail with a message naming them.
 */
export function parseOnnxModel(bytes: Uint8Array, readExternal: ExternalReader | null = null): OnnxModel {
  const proto = decodeModel(bytes);
  const graph = proto.graph;
  if (!graph) throw new Error('ONNX file has no graph');
  let opset = 0;
  for (const o of proto.opsetImport ?? []) {
    if (!o.domain || o.domain === 'ai.onnx') opset = Math.max(opset, toNumber(o.version));
  }
  const initializers = new Map<string, OnnxTensor>();
  for (const t of graph.initializer ?? []) initializers.set(t.name ?? '', decodeTensor(t, readExternal));
  const nodes = (graph.node ?? []).map((n, i): OnnxNode => {
    const opType = n.opType ?? '';
    const attributes = new Map<string, OnnxAttribute>();
    for (const a of n.attribute ?? []) attributes.set(a.name ?? '', decodeAttribute(a, readExternal));
    return {
      name: n.name || `${opType}_${i}`,
      opType,
      domain: n.domain ?? '',
      inputs: [...(n.input ?? [])],
      outputs: [...(n.output ?? [])],
      attributes,
    };
  });
  return {
    irVersion: toNumber(proto.irVersion),
    opset: opset || 1,
    producer: [proto.producerName, proto.producerVersion].filter(Boolean).join(' '),
    inputs: (graph.input ?? []).filter((v) => !initializers.has(v.name ?? '')).map(decodeValueInfo),
    outputs: (graph.output ?? []).map(decodeValueInfo),
    initializers,
    nodes,
  };
}

/** Reads and decodes an ONNX file, resolving external weight files next to it. */
export async function readOnnxModel(path: string): Promise<OnnxModel> {
  const bytes = await readFile(path);
  const dir = dirname(resolve(path));
  const files = new Map<string, Uint8Array>();
  const external: ExternalReader = (location, offset, length) => {
    // Reading synchronously keeps the decoder simple; external data is rare and read once.
    let file = files.get(location);
    if (!file) {
      file = readFileSync(resolve(dir, location));
      files.set(location, file);
    }
    return file.subarray(offset, length == null ? undefined : offset + length);
  };
  return parseOnnxModel(bytes, external);
}

/** One op type and how often the graph uses it; what `inspect` prints to judge engine coverage. */
export interface OpCount {
  readonly opType: string;
  readonly domain: string;
  readonly count: number;
}

/** Op types of a model with counts, most frequent first, so the reader sees the ops that matter. */
export function listOps(model: OnnxModel): OpCount[] {
  const counts = new Map<string, OpCount>();
  for (const n of model.nodes) {
    const key = `${n.domain}\u0000${n.opType}`;
    const prev = counts.get(key);
    counts.set(key, { opType: n.opType, domain: n.domain, count: (prev?.count ?? 0) + 1 });
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.opType.localeCompare(b.opType));
}
