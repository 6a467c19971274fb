/**
 * A small, generic writer of ONNX models over `onnx-proto`. inferbench
 * generates its own models (a BERT-style classifier, later a GPT-2 style
 * decoder) and its tests build tiny one-op graphs, so this keeps that code
 * about the graph rather than about protobuf field names.
 *
 * Conventions, all chosen to match what exporters such as torch.onnx write:
 * - tensor data goes into `raw_data`, little-endian, whatever the host's order;
 * - dynamic dimensions are named (`batch`, `sequence`) with `dim_param`;
 * - values are single-assignment: every name is produced once, and a node may
 *   only read names that already exist, so mistakes fail here rather than as
 *   an opaque open error in an engine.
 */
import type { onnx as OnnxTypes } from 'onnx-proto';
import { elementCount, type HostDType, type HostTensor } from '../tensor.js';
import { encodeModel, onnx } from './onnx-proto.js';

/** ONNX IR version written by default: 8 is what ONNX 1.10 / opset 14-15 exporters write, and every engine inferbench drives reads it. */
export const DEFAULT_IR_VERSION = 8;

/** ONNX `TensorProto.DataType` code of each host dtype; exported so graph readers can map back. */
export const ONNX_DATA_TYPE: Readonly<Record<HostDType, number>> = {
  float32: onnx.TensorProto.DataType.FLOAT,
  int64: onnx.TensorProto.DataType.INT64,
  int32: onnx.TensorProto.DataType.INT32,
  bool: onnx.TensorProto.DataType.BOOL,
};

/** A dimension of a graph input/output: a fixed size, or a name shared by every dimension that varies together. */
export type Dim = number | string;

/**
 * An attribute value tagged with its ONNX type. ONNX distinguishes `int` from
 * `float` (e.g. Softmax `axis` vs LayerNorm `epsilon`), which a plain JS
 * number cannot, so values are built with the `attr` helpers.
 */
export type AttributeValue =
  | { readonly type: 'int'; readonly value: number }
  | { readonly type: 'float'; readonly value: number }
  | { readonly type: 'ints'; readonly value: readonly number[] }
  | { readonly type: 'floats'; readonly value: readonly number[] }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'tensor'; readonly value: HostTensor };

function checkInts(values: readonly number[]): void {
  for (const v of values) {
    if (!Number.isSafeInteger(v)) throw new RangeError(`ONNX int attribute value ${v} is not a safe integer`);
  }
}

/** Builders of typed attribute values, e.g. `{ axis: attr.int(-1) }`. */
export const attr = {
  int(value: number): AttributeValue {
    checkInts([value]);
    return { type: 'int', value };
  },
  float(value: number): AttributeValue {
    return { type: 'float', value };
  },
  ints(value: readonly number[]): AttributeValue {
    checkInts(value);
    return { type: 'ints', value: [...value] };
  },
  floats(value: readonly number[]): AttributeValue {
    return { type: 'floats', value: [...value] };
  },
  string(value: string): AttributeValue {
    return { type: 'string', value };
  },
  tensor(value: HostTensor): AttributeValue {
    return { type: 'tensor', value };
  },
} as const;

/** Everything `addNode` needs; `outputs` may be a count, in which case names are derived from the node name. */
export interface NodeSpec {
  readonly opType: string;
  readonly inputs: readonly string[];
  /** Output names, or how many outputs to name `<node>_output_<i>` (default 1). */
  readonly outputs?: readonly string[] | number;
  /** Node name; default `<opType>_<n>`. */
  readonly name?: string;
  readonly attributes?: Readonly<Record<string, AttributeValue>>;
  /** Operator domain; '' (the default) is the standard ONNX domain. */
  readonly domain?: string;
}

export interface ModelOptions {
  /** Opset of the default ('') domain, e.g. 14. */
  readonly opset: number;
  readonly graphName?: string;
  readonly irVersion?: number;
  /** Further operator domains, e.g. `{ 'com.microsoft': 1 }`. */
  readonly extraOpsets?: Readonly<Record<string, number>>;
  readonly producerName?: string;
  readonly producerVersion?: string;
  readonly docString?: string;
  /** `metadata_props` of the model, written in key order so bytes are stable. */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** Whether this host's typed arrays are little-endian, as ONNX and TensorFlow store tensor bytes (then no per-element conversion is needed). */
export const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Raw little-endian bytes of a tensor, as ONNX `raw_data` requires. */
export function tensorRawData(t: HostTensor): Uint8Array {
  const { data } = t;
  if (HOST_LITTLE_ENDIAN || data.BYTES_PER_ELEMENT === 1) {
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
  }
  const out = new Uint8Array(data.byteLength);
  const view = new DataView(out.buffer);
  for (let i = 0; i < data.length; i++) {
    const v = data[i] as number | bigint;
    if (t.dtype === 'float32') view.setFloat32(i * 4, v as number, true);
    else if (t.dtype === 'int32') view.setInt32(i * 4, v as number, true);
    else view.setBigInt64(i * 8, v as bigint, true);
  }
  return out;
}

/** A TensorProto message for an initializer or a `tensor` attribute. */
export function tensorProto(name: string, t: HostTensor): OnnxTypes.ITensorProto {
  if (t.data.length !== elementCount(t.dims)) {
    throw new RangeError(`tensor ${name} has ${t.data.length} elements but dims [${t.dims.join(', ')}]`);
  }
  return { name, dims: [...t.dims], dataType: ONNX_DATA_TYPE[t.dtype], rawData: tensorRawData(t) };
}

function attributeProto(name: string, a: AttributeValue): OnnxTypes.IAttributeProto {
  const T = onnx.AttributeProto.AttributeType;
  switch (a.type) {
    case 'int':
      return { name, type: T.INT, i: a.value };
    case 'float':
      return { name, type: T.FLOAT, f: a.value };
    case 'ints':
      return { name, type: T.INTS, ints: [...a.value] };
    case 'floats':
      return { name, type: T.FLOATS, floats: [...a.value] };
    case 'string':
      return { name, type: T.STRING, s: new TextEncoder().encode(a.value) };
    case 'tensor':
      return { name, type: T.TENSOR, t: tensorProto('', a.value) };
  }
}

function valueInfo(name: string, dtype: HostDType, dims: readonly Dim[]): OnnxTypes.IValueInfoProto {
  const dim = dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d }));
  return { name, type: { tensorType: { elemType: ONNX_DATA_TYPE[dtype], shape: { dim } } } };
}

/**
 * Accumulates one graph in topological order and encodes it as a ModelProto.
 * Nodes must be added after the values they read, which is also the order
 * ONNX requires in the file.
 */
export class OnnxModelBuilder {
  private readonly nodes: OnnxTypes.INodeProto[] = [];
  private readonly initializers: OnnxTypes.ITensorProto[] = [];
  private readonly inputs: OnnxTypes.IValueInfoProto[] = [];
  private readonly outputs: OnnxTypes.IValueInfoProto[] = [];
  private readonly values = new Set<string>();
  private readonly nodeNames = new Set<string>();
  private readonly opCounts = new Map<string, number>();

  constructor(private readonly options: ModelOptions) {
    if (!Number.isInteger(options.opset) || options.opset < 1) throw new RangeError(`opset ${options.opset} is invalid`);
  }

  /** True when `name` is already a graph input, initializer or node output. */
  has(name: string): boolean {
    return this.values.has(name);
  }

  private define(name: string): void {
    if (name === '') throw new RangeError('ONNX value names must not be empty');
    if (this.values.has(name)) throw new RangeError(`ONNX value ${name} is defined twice`);
    this.values.add(name);
  }

  /** Declares a graph input; string dims are dynamic (`dim_param`). Returns `name` for chaining into nodes. */
  addInput(name: string, dtype: HostDType, dims: readonly Dim[]): string {
    this.define(name);
    this.inputs.push(valueInfo(name, dtype, dims));
    return name;
  }

  /** Declares a graph output; the value must exist by the time `encode` is called. */
  addOutput(name: string, dtype: HostDType, dims: readonly Dim[]): string {
    this.outputs.push(valueInfo(name, dtype, dims));
    return name;
  }

  /** Stores a weight or constant in the graph's initializer list (raw little-endian data). */
  addInitializer(name: string, tensor: HostTensor): string {
    this.define(name);
    this.initializers.push(tensorProto(name, tensor));
    return name;
  }

  /** Adds a node and returns its output names. Inputs named '' are ONNX's "optional input omitted". */
  addNode(spec: NodeSpec): string[] {
    for (const input of spec.inputs) {
      if (input !== '' && !this.values.has(input)) {
        throw new RangeError(`${spec.opType} node reads ${input}, which no earlier input, initializer or node defines`);
      }
    }
    const name = spec.name ?? this.autoName(spec.opType);
    if (this.nodeNames.has(name)) throw new RangeError(`ONNX node name ${name} is used twice`);
    this.nodeNames.add(name);
    const outputSpec = spec.outputs ?? 1;
    const outputs =
      typeof outputSpec === 'number'
        ? Array.from({ length: outputSpec }, (_, i) => `${name}_output_${i}`)
        : [...outputSpec];
    for (const o of outputs) this.define(o);
    const attribute = Object.entries(spec.attributes ?? {})
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, value]) => attributeProto(key, value));
    this.nodes.push({
      name,
      opType: spec.opType,
      domain: spec.domain ?? '',
      input: [...spec.inputs],
      output: outputs,
      attribute,
    });
    return outputs;
  }

  /** Shorthand for the common single-output node; returns the output name. */
  op(opType: string, inputs: readonly string[], attributes?: Readonly<Record<string, AttributeValue>>, name?: string): string {
    const spec: NodeSpec = { opType, inputs, ...(attributes ? { attributes } : {}), ...(name ? { name } : {}) };
    return this.addNode(spec)[0] as string;
  }

  /** A `Constant` node holding `tensor`, the way torch.onnx writes shape and scalar constants. */
  constant(tensor: HostTensor, name?: string): string {
    return this.op('Constant', [], { value: attr.tensor(tensor) }, name);
  }

  private autoName(opType: string): string {
    let n = this.opCounts.get(opType) ?? 0;
    let name: string;
    do {
      name = `${opType}_${n++}`;
    } while (this.nodeNames.has(name));
    this.opCounts.set(opType, n);
    return name;
  }

  /** The ModelProto as a plain message object, for inspection in tests. */
  toModelProto(): OnnxTypes.IModelProto {
    for (const out of this.outputs) {
      if (!this.values.has(out.name ?? '')) throw new RangeError(`graph output ${out.name} is never produced`);
    }
    const o = this.options;
    const opsetImport: OnnxTypes.IOperatorSetIdProto[] = [{ domain: '', version: o.opset }];
    for (const [domain, version] of Object.entries(o.extraOpsets ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
      opsetImport.push({ domain, version });
    }
    const metadataProps = Object.entries(o.metadata ?? {})
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, value]) => ({ key, value }));
    return {
      irVersion: o.irVersion ?? DEFAULT_IR_VERSION,
      opsetImport,
      producerName: o.producerName ?? 'inferbench',
      producerVersion: o.producerVersion ?? '',
      docString: o.docString ?? '',
      metadataProps,
      graph: {
        name: o.graphName ?? 'main_graph',
        node: this.nodes,
        initializer: this.initializers,
        input: this.inputs,
        output: this.outputs,
      },
    };
  }

  /** Serialized model bytes; the same calls in the same order always give the same bytes. */
  encode(): Uint8Array {
    return encodeModel(this.toModelProto());
  }
}
