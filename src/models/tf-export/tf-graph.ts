/**
 * A TensorFlow graph as the exporter builds it: NodeDefs with TF op names
 * and typed attrs, Const nodes carrying their tensors, and the signature
 * (graph inputs and outputs). One form, written two ways: as a GraphModel's
 * JSON GraphDef (graph-model-writer.ts) and as a SavedModel's binary
 * GraphDef (saved-model-writer.ts).
 */
import { HOST_LITTLE_ENDIAN } from '../../core/onnx/onnx-builder.js';

/** TensorFlow DataType names the exporter writes (types.proto). */
export type TfDataType = 'DT_FLOAT' | 'DT_INT32' | 'DT_INT64' | 'DT_BOOL';

/** The enum values of those names in TensorFlow's types.proto. */
export const TF_DATA_TYPE_CODES: Readonly<Record<TfDataType, number>> = { DT_FLOAT: 1, DT_INT32: 3, DT_INT64: 9, DT_BOOL: 10 };

/** Typed array of each dtype; bool is one byte per element, as TensorFlow stores it. */
export type TfTensorData = Float32Array | Int32Array | BigInt64Array | Uint8Array;

/** A constant tensor. */
export interface TfTensorValue {
  readonly dtype: TfDataType;
  readonly dims: readonly number[];
  readonly data: TfTensorData;
}

/** An AttrValue (attr_value.proto), tagged by the field it sets. */
export type TfAttr =
  | { readonly kind: 'type'; readonly value: TfDataType }
  | { readonly kind: 'i'; readonly value: number }
  | { readonly kind: 'f'; readonly value: number }
  | { readonly kind: 'b'; readonly value: boolean }
  /** A shape: -1 for a dynamic dim. */
  | { readonly kind: 'shape'; readonly value: readonly number[] }
  | { readonly kind: 'list_i'; readonly value: readonly number[] }
  | { readonly kind: 'list_s'; readonly value: readonly string[] }
  | { readonly kind: 'tensor'; readonly value: TfTensorValue };

/** A NodeDef: `inputs` are `node` or `node:index` references. */
export interface TfNode {
  readonly name: string;
  readonly op: string;
  readonly inputs: readonly string[];
  readonly attrs: Readonly<Record<string, TfAttr>>;
}

/** One signature entry: the ONNX name users know it by, the TF tensor, its dtype and shape (-1 dynamic). */
export interface TfSignatureEntry {
  readonly key: string;
  /** `node:0`. */
  readonly tensor: string;
  readonly dtype: TfDataType;
  readonly shape: readonly number[];
}

/**
 * Which file the graph is for. A SavedModel keeps int64 where ONNX has it
 * (TensorFlow computes in int64); a GraphModel holds every int64 as int32,
 * the widest integer tfjs has.
 */
export type TfExportTarget = 'saved-model' | 'graph-model';

export interface TfGraph {
  readonly target: TfExportTarget;
  readonly nodes: readonly TfNode[];
  readonly inputs: readonly TfSignatureEntry[];
  readonly outputs: readonly TfSignatureEntry[];
  /** Facts a reader of the files wants: source graph, opset, exporter version. */
  readonly producer: string;
}

/** Byte size of one element of `dtype`. */
export function tfDTypeBytes(dtype: TfDataType): number {
  return dtype === 'DT_INT64' ? 8 : dtype === 'DT_BOOL' ? 1 : 4;
}

/** A tensor's elements as little-endian bytes (TensorProto.tensor_content, GraphModel weight shards). */
export function tensorBytes(t: TfTensorValue): Uint8Array {
  const { data } = t;
  // A little-endian host's typed arrays already hold these bytes: one copy instead of a DataView write per element (22 M for minilm).
  if (HOST_LITTLE_ENDIAN && !(data instanceof Uint8Array)) return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  const out = new Uint8Array(data.length * tfDTypeBytes(t.dtype));
  const view = new DataView(out.buffer);
  for (let i = 0; i < data.length; i++) {
    if (data instanceof Float32Array) view.setFloat32(i * 4, data[i] as number, true);
    else if (data instanceof Int32Array) view.setInt32(i * 4, data[i] as number, true);
    else if (data instanceof BigInt64Array) view.setBigInt64(i * 8, data[i] as bigint, true);
    else view.setUint8(i, data[i] ? 1 : 0);
  }
  return out;
}

/** TensorFlow node names: a letter, digit or dot, then letters, digits and `_.-/>` (NodeDef's name rule). */
function sanitize(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.\-/>]/g, '_').replace(/^[/_\-]+/, '').replace(/\/+$/, '');
  return /^[A-Za-z0-9.]/.test(cleaned) ? cleaned : `n${cleaned}`;
}

/** Tensors of at most this many elements are small constants (axes, shapes, scalars, index bounds), shared between nodes. */
export const SMALL_CONST_ELEMENTS = 16;

/**
 * Builds the node list: unique, valid node names, deduplicated small
 * constants, and one call per op so lowerings read like the TF program
 * they write.
 */
export class TfGraphBuilder {
  readonly nodes: TfNode[] = [];
  private readonly used = new Set<string>();
  private readonly smallConsts = new Map<string, string>();

  /** A fresh node name derived from `hint` (an ONNX node or value name). */
  name(hint: string): string {
    const base = sanitize(hint);
    let name = base;
    for (let i = 1; this.used.has(name); i++) name = `${base}_${i}`;
    this.used.add(name);
    return name;
  }

  /** Adds a node and returns its first output's reference (`name`), or `name:k` refs via `outputs`. */
  op(op: string, inputs: readonly string[], attrs: Record<string, TfAttr>, hint: string): string {
    const name = this.name(hint);
    this.nodes.push({ name, op, inputs: [...inputs], attrs });
    return name;
  }

  /** A Const node (weights and small constants alike); tensors of at most SMALL_CONST_ELEMENTS elements are shared. */
  constant(value: TfTensorValue, hint: string): string {
    const small = value.data.length <= SMALL_CONST_ELEMENTS ? `${value.dtype}|${value.dims.join('x')}|${Array.from(value.data as ArrayLike<number | bigint>, String).join(',')}` : null;
    const known = small === null ? undefined : this.smallConsts.get(small);
    if (known !== undefined) return known;
    const ref = this.op('Const', [], { dtype: type(value.dtype), value: { kind: 'tensor', value } }, hint);
    if (small !== null) this.smallConsts.set(small, ref);
    return ref;
  }

  /** A small int32 constant (axes, perms, begin/end vectors): a scalar when `scalar`, else 1-D. */
  int32(values: readonly number[], hint: string, scalar = false): string {
    return this.constant({ dtype: 'DT_INT32', dims: scalar ? [] : [values.length], data: Int32Array.from(values) }, hint);
  }

  /** A small integer constant of `dtype` (int32 or int64), for data-path index arithmetic. */
  ints(values: readonly number[], dtype: TfDataType, hint: string, scalar = false): string {
    const dims = scalar ? [] : [values.length];
    if (dtype === 'DT_INT64') return this.constant({ dtype, dims, data: BigInt64Array.from(values, (v) => BigInt(v)) }, hint);
    if (dtype === 'DT_INT32') return this.int32(values, hint, scalar);
    if (dtype === 'DT_FLOAT') return this.constant({ dtype, dims, data: Float32Array.from(values) }, hint);
    return this.constant({ dtype, dims, data: Uint8Array.from(values) }, hint);
  }
}

/** Attr helpers, so lowerings read `{ T: type(dt) }`. */
export function type(value: TfDataType): TfAttr {
  return { kind: 'type', value };
}
export function int(value: number): TfAttr {
  return { kind: 'i', value };
}
export function bool(value: boolean): TfAttr {
  return { kind: 'b', value };
}
export function float(value: number): TfAttr {
  return { kind: 'f', value };
}
export function ints(value: readonly number[]): TfAttr {
  return { kind: 'list_i', value };
}
export function strings(value: readonly string[]): TfAttr {
  return { kind: 'list_s', value };
}
export function shape(value: readonly number[]): TfAttr {
  return { kind: 'shape', value };
}
