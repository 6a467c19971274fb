/**
 * The subset of TensorFlow's protobuf messages a SavedModel and its
 * checkpoint need, for protobufjs: SavedModel, MetaGraphDef (its
 * MetaInfoDef, SaverDef and SignatureDef map), GraphDef, NodeDef,
 * AttrValue, TensorProto, TensorShapeProto, TensorInfo, VersionDef, and the
 * tensor bundle's BundleHeaderProto and BundleEntryProto. The field numbers and wire
 * types are those of TensorFlow's .proto files (tensorflow/core/framework,
 * tensorflow/core/protobuf); fields the exporter never writes are left
 * out, so decoding a foreign file skips them. DataType is carried as its
 * enum number.
 */
import { createRequire } from 'node:module';
import type protobuf from 'protobufjs';

const SCHEMA = `
syntax = "proto3";
package inferbench.tf;

message TensorShapeProto {
  message Dim {
    int64 size = 1;
    string name = 2;
  }
  repeated Dim dim = 2;
  bool unknown_rank = 3;
}

message TensorProto {
  int32 dtype = 1;
  TensorShapeProto tensor_shape = 2;
  bytes tensor_content = 4;
  repeated float float_val = 5;
  repeated int32 int_val = 7;
  repeated int64 int64_val = 10;
  repeated bytes string_val = 8;
  repeated bool bool_val = 11;
}

message AttrValue {
  message ListValue {
    repeated bytes s = 2;
    repeated int64 i = 3;
    repeated float f = 4;
    repeated bool b = 5;
    repeated int32 type = 6;
    repeated TensorShapeProto shape = 7;
  }
  oneof value {
    ListValue list = 1;
    bytes s = 2;
    int64 i = 3;
    float f = 4;
    bool b = 5;
    int32 type = 6;
    TensorShapeProto shape = 7;
    TensorProto tensor = 8;
  }
}

message NodeDef {
  string name = 1;
  string op = 2;
  repeated string input = 3;
  string device = 4;
  map<string, AttrValue> attr = 5;
}

message VersionDef {
  int32 producer = 1;
  int32 min_consumer = 2;
}

message GraphDef {
  repeated NodeDef node = 1;
  VersionDef versions = 4;
}

message TensorInfo {
  string name = 1;
  int32 dtype = 2;
  TensorShapeProto tensor_shape = 3;
}

message SignatureDef {
  map<string, TensorInfo> inputs = 1;
  map<string, TensorInfo> outputs = 2;
  string method_name = 3;
}

message MetaGraphDef {
  message MetaInfoDef {
    string meta_graph_version = 1;
    repeated string tags = 4;
    string tensorflow_version = 5;
    string tensorflow_git_version = 6;
    bool stripped_default_attrs = 7;
  }
  MetaInfoDef meta_info_def = 1;
  GraphDef graph_def = 2;
  SaverDef saver_def = 3;
  map<string, SignatureDef> signature_def = 5;
}

message SaverDef {
  string filename_tensor_name = 1;
  string save_tensor_name = 2;
  string restore_op_name = 3;
  int32 max_to_keep = 4;
  bool sharded = 5;
  float keep_checkpoint_every_n_hours = 6;
  int32 version = 7;
}

message BundleHeaderProto {
  int32 num_shards = 1;
  int32 endianness = 2;
  VersionDef version = 3;
}

message BundleEntryProto {
  int32 dtype = 1;
  TensorShapeProto shape = 2;
  int32 shard_id = 3;
  int64 offset = 4;
  int64 size = 5;
  fixed32 crc32c = 6;
}

message SavedModel {
  int64 saved_model_schema_version = 1;
  repeated MetaGraphDef meta_graphs = 2;
}
`;

let root: protobuf.Root | undefined;

/** The message type `name` (SavedModel, GraphDef, …) of the schema above, parsed once. */
export function tfMessage(name: string): protobuf.Type {
  // protobufjs is required here, on the first message: model-folder checks import this module at every CLI start, and a
  // static import of the CommonJS package (scanned by cjs-module-lexer first) cost those starts about 0.05 s of CPU.
  root ??= (createRequire(import.meta.url)('protobufjs') as typeof protobuf).parse(SCHEMA, { keepCase: true }).root;
  return root.lookupType(`inferbench.tf.${name}`);
}

/** Plain-object forms the writer builds (keepCase: field names as in the .proto files). */
export interface ShapeMessage {
  dim?: { size: number }[];
  unknown_rank?: boolean;
}
export interface TensorMessage {
  dtype: number;
  tensor_shape: ShapeMessage;
  tensor_content?: Uint8Array;
  float_val?: number[];
  int_val?: number[];
  int64_val?: (number | protobuf.Long)[];
  string_val?: Uint8Array[];
  bool_val?: boolean[];
}
export interface AttrMessage {
  list?: { i?: number[]; s?: Uint8Array[]; type?: number[]; shape?: ShapeMessage[] };
  s?: Uint8Array;
  i?: number;
  f?: number;
  b?: boolean;
  type?: number;
  shape?: ShapeMessage;
  tensor?: TensorMessage;
}
export interface NodeMessage {
  name: string;
  op: string;
  input: string[];
  attr: Record<string, AttrMessage>;
}
export interface TensorInfoMessage {
  name: string;
  dtype: number;
  tensor_shape: ShapeMessage;
}
export interface SignatureMessage {
  inputs: Record<string, TensorInfoMessage>;
  outputs: Record<string, TensorInfoMessage>;
  method_name: string;
}
export interface MetaGraphMessage {
  meta_info_def: { meta_graph_version?: string; tags: string[]; tensorflow_version?: string; tensorflow_git_version?: string; stripped_default_attrs?: boolean };
  graph_def: { node: NodeMessage[]; versions: { producer: number; min_consumer?: number } };
  saver_def?: { filename_tensor_name: string; save_tensor_name: string; restore_op_name: string; max_to_keep?: number; sharded?: boolean; version?: number };
  signature_def: Record<string, SignatureMessage>;
}
export interface SavedModelMessage {
  saved_model_schema_version: number;
  meta_graphs: MetaGraphMessage[];
}

/** Encodes a SavedModel message. */
export function encodeSavedModel(message: SavedModelMessage): Uint8Array {
  const type = tfMessage('SavedModel');
  return type.encode(type.fromObject(message)).finish();
}

/** Decodes saved_model.pb bytes into plain objects (int64 as numbers, bytes as Uint8Array). */
export function decodeSavedModel(bytes: Uint8Array): SavedModelMessage {
  const type = tfMessage('SavedModel');
  return type.toObject(type.decode(bytes), { longs: Number, defaults: false, arrays: true, objects: true }) as SavedModelMessage;
}
