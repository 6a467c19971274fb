/**
 * Small editing helpers over a decoded ONNX ModelProto, shared by the
 * precision-variant writers (fp16, int8, int4). They rewrite the generated
 * fp32 graph in place; everything is little-endian `raw_data`, as the
 * builder writes it.
 */
import onnxProto from 'onnx-proto';
import type { onnx as OnnxTypes } from 'onnx-proto';

const { onnx } = onnxProto;

export type ModelProto = OnnxTypes.ModelProto;
export type GraphProto = OnnxTypes.IGraphProto;
export type NodeProto = OnnxTypes.INodeProto;
export type TensorProto = OnnxTypes.ITensorProto;

/** TensorProto.DataType codes the variant writers use. */
export const DT = {
  FLOAT: onnx.TensorProto.DataType.FLOAT,
  UINT8: onnx.TensorProto.DataType.UINT8,
  INT8: onnx.TensorProto.DataType.INT8,
  INT32: onnx.TensorProto.DataType.INT32,
  FLOAT16: onnx.TensorProto.DataType.FLOAT16,
} as const;

export function decodeModelProto(bytes: Uint8Array): ModelProto {
  return onnx.ModelProto.decode(bytes);
}

export function encodeModelProto(model: ModelProto): Uint8Array {
  return onnx.ModelProto.encode(model).finish();
}

const HOST_LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

export function dimsOf(t: TensorProto): number[] {
  return (t.dims ?? []).map((d) => Number(d));
}

/** The float32 values of a FLOAT tensor stored in raw_data. */
export function floatValues(t: TensorProto): Float32Array {
  const raw = t.rawData ?? new Uint8Array();
  const count = dimsOf(t).reduce((a, b) => a * b, 1);
  if (raw.byteLength >= count * 4 && HOST_LITTLE_ENDIAN && raw.byteOffset % 4 === 0) {
    return new Float32Array(raw.buffer, raw.byteOffset, count).slice();
  }
  if (raw.byteLength >= count * 4) {
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
    return out;
  }
  return Float32Array.from(t.floatData ?? []);
}

/** A tensor of `dataType` holding `bytes` as raw data. */
export function rawTensor(name: string, dataType: number, dims: readonly number[], bytes: Uint8Array): TensorProto {
  return onnx.TensorProto.create({ name, dataType, dims: [...dims], rawData: bytes });
}

export function floatTensor(name: string, dims: readonly number[], values: Float32Array): TensorProto {
  if (HOST_LITTLE_ENDIAN) return rawTensor(name, DT.FLOAT, dims, new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength)));
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return rawTensor(name, DT.FLOAT, dims, bytes);
}

export function int8Tensor(name: string, dims: readonly number[], values: Int8Array): TensorProto {
  return rawTensor(name, DT.INT8, dims, new Uint8Array(values.buffer, values.byteOffset, values.byteLength).slice());
}

export function uint8Tensor(name: string, dims: readonly number[], values: Uint8Array): TensorProto {
  return rawTensor(name, DT.UINT8, dims, values.slice());
}

/** An attribute proto of type INT. */
export function intAttr(name: string, value: number): OnnxTypes.IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
}

/** A node proto; `domain` '' is the default ONNX domain. */
export function node(opType: string, name: string, inputs: readonly string[], outputs: readonly string[], attribute: OnnxTypes.IAttributeProto[] = [], domain = ''): NodeProto {
  return onnx.NodeProto.create({ opType, name, input: [...inputs], output: [...outputs], attribute, domain });
}

/** Initializers by name. */
export function initializerMap(graph: GraphProto): Map<string, TensorProto> {
  return new Map((graph.initializer ?? []).map((t) => [t.name ?? '', t]));
}

/** How many nodes read each value, so a weight shared by two nodes is not removed with the first. */
export function readerCounts(graph: GraphProto): Map<string, number> {
  const counts = new Map<string, number>();
  for (const n of graph.node ?? []) for (const i of n.input ?? []) counts.set(i, (counts.get(i) ?? 0) + 1);
  return counts;
}

/** Adds an opset import (e.g. com.microsoft 1) unless present. */
export function ensureOpset(model: ModelProto, domain: string, version: number): void {
  const imports = model.opsetImport ?? [];
  if (!imports.some((o) => (o.domain ?? '') === domain)) imports.push(onnx.OperatorSetIdProto.create({ domain, version }));
  model.opsetImport = imports;
}

/** Marks the model as a variant in its metadata, so a reader of the file can tell what was done to it. */
export function tagVariant(model: ModelProto, dtype: string, method: string): void {
  const props = (model.metadataProps ?? []).filter((p) => p.key !== 'inferbench.variant' && p.key !== 'inferbench.variant_method');
  props.push(onnx.StringStringEntryProto.create({ key: 'inferbench.variant', value: dtype }));
  props.push(onnx.StringStringEntryProto.create({ key: 'inferbench.variant_method', value: method }));
  model.metadataProps = props;
}

/** Symmetric per-column int8 quantization of a row-major [K, N] matrix: scale[n] = max|W[:, n]| / 127. */
export function quantizeColumnsInt8(values: Float32Array, k: number, n: number): { q: Int8Array; scales: Float32Array } {
  const max = new Float32Array(n);
  for (let row = 0; row < k; row++) {
    const base = row * n;
    for (let col = 0; col < n; col++) {
      const a = Math.abs(values[base + col] as number);
      if (a > (max[col] as number)) max[col] = a;
    }
  }
  const scales = max.map((m) => (m > 0 ? m / 127 : 1));
  const inverse = scales.map((s) => 1 / s);
  const q = new Int8Array(k * n);
  for (let row = 0; row < k; row++) {
    const base = row * n;
    for (let col = 0; col < n; col++) {
      const v = Math.round((values[base + col] as number) * (inverse[col] as number));
      q[base + col] = v > 127 ? 127 : v < -127 ? -127 : v;
    }
  }
  return { q, scales };
}

/** Symmetric per-tensor int8 quantization. */
export function quantizeTensorInt8(values: Float32Array): { q: Int8Array; scale: number } {
  let max = 0;
  for (const v of values) max = Math.max(max, Math.abs(v));
  const scale = max > 0 ? max / 127 : 1;
  const q = new Int8Array(values.length);
  for (let i = 0; i < values.length; i++) q[i] = Math.max(-127, Math.min(127, Math.round((values[i] as number) / scale)));
  return { q, scale };
}
