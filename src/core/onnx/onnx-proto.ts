/**
 * The one place ONNX protobuf bytes are decoded and encoded (onnx-proto's
 * generated protobufjs classes). It imports nothing from Node, so the
 * browser page's bundle of the tfjs translator can take it; file reading
 * and writing is onnx-file.ts, the typed view of a graph onnx-decode.ts.
 * The package itself comes through onnx-proto-require.cts (why: there).
 */
import onnxProto from './onnx-proto-require.cjs';
import type { onnx as OnnxTypes } from 'onnx-proto';

/** onnx-proto's namespace, for its enums (TensorProto.DataType, AttributeProto.AttributeType…). */
export const { onnx } = onnxProto;

export type ModelProto = OnnxTypes.IModelProto;
export type GraphProto = OnnxTypes.IGraphProto;
export type NodeProto = OnnxTypes.INodeProto;
export type TensorProto = OnnxTypes.ITensorProto;
export type AttributeProto = OnnxTypes.IAttributeProto;
export type ValueInfoProto = OnnxTypes.IValueInfoProto;

/** Serialized bytes of a model held whole in memory (the graph builder, the browser's warm-up graph). */
export function encodeModel(model: ModelProto): Uint8Array {
  return onnx.ModelProto.encode(model).finish();
}

/** ModelProto bytes as protobuf messages; every reader of an ONNX file decodes through here. */
export function decodeModel(bytes: Uint8Array): OnnxTypes.ModelProto {
  return onnx.ModelProto.decode(bytes);
}
