/**
 * ONNX files at the protobuf level: the one place that decodes and encodes
 * ModelProto bytes (the decoded, typed view is onnx-decode.ts; the graph
 * builder is onnx-builder.ts). Reading and writing whole models is built for
 * the sizes Hugging Face exports reach, as the variant writers need:
 *
 * - reading decodes the graph once; tensor bytes stay views into the file
 *   buffer, and tensors stored as external data (`model.onnx_data`, how
 *   exports over 2 GB are saved) are read from their file only when a writer
 *   asks for them;
 * - writing never builds the whole output in memory: the model without its
 *   initializers is encoded with protobufjs, then each initializer is written
 *   as its own header plus its raw bytes, which protobuf's wire format allows
 *   (fields may come in any order; repeated fields concatenate);
 * - above a threshold (2 GB by default, protobuf's limit) tensor bytes go to
 *   a `<file>_data` external-data file instead;
 * - both files are written under temporary names and renamed when complete,
 *   so a full disk or a crash never leaves a partial model behind.
 */
import { randomBytes } from 'node:crypto';
import { openSync, readSync, closeSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readRegularFile } from '../regular-file.js';
import { decodeModel, onnx, type AttributeProto, type ModelProto, type NodeProto, type TensorProto } from './onnx-proto.js';
import { lengthField } from './protobuf-wire.js';

export type { AttributeProto, GraphProto, ModelProto, NodeProto, TensorProto } from './onnx-proto.js';

/** TensorProto.DataType codes the writers use. */
export const DT = {
  FLOAT: 1,
  UINT8: 2,
  INT8: 3,
  INT32: 6,
  INT64: 7,
  FLOAT16: 10,
  DOUBLE: 11,
} as const;

const EXTERNAL = 1;
/** Protobuf refuses messages of 2 GiB or more; tensors beyond this total go to an external-data file. */
export const PROTOBUF_LIMIT = 2 ** 31 - 1;
/** Tensors at least this large are aligned in the external-data file, as onnx's own writer aligns them. */
const ALIGN = 4096;

/** A decoded model and where its external tensor bytes live. */
export interface DecodedModel {
  readonly model: ModelProto;
  /** Folder of the model file; external-data locations are relative to it. */
  readonly dir: string;
  /** Files the model's bytes came from (the graph and any external-data files), for hashing and sizes. */
  readonly files: readonly string[];
}

/** The values a tensor stores, wherever they are: raw_data, typed fields, or an external-data file. */
export function tensorBytes(t: TensorProto, dir: string): Uint8Array {
  if (t.dataLocation === EXTERNAL) {
    const entry = (key: string): string | undefined => t.externalData?.find((e) => e.key === key)?.value ?? undefined;
    const location = entry('location');
    if (!location || location.includes('..') || location.startsWith('/')) throw new Error(`tensor ${t.name}: external data location ${JSON.stringify(location)} is not a file beside the model`);
    const offset = Number(entry('offset') ?? 0);
    const length = entry('length');
    const fd = openSync(join(dir, location), 'r');
    try {
      const size = length === undefined ? externalLength(t) : Number(length);
      const out = new Uint8Array(size);
      let read = 0;
      while (read < size) {
        const n = readSync(fd, out, read, size - read, offset + read);
        if (n === 0) throw new Error(`tensor ${t.name}: external data file ${location} ends before byte ${offset + size}`);
        read += n;
      }
      return out;
    } finally {
      closeSync(fd);
    }
  }
  if (t.rawData && t.rawData.byteLength > 0) return t.rawData;
  return typedFieldBytes(t);
}

function externalLength(t: TensorProto): number {
  const bytesPer: Record<number, number> = { [DT.FLOAT]: 4, [DT.UINT8]: 1, [DT.INT8]: 1, [DT.INT32]: 4, [DT.INT64]: 8, [DT.FLOAT16]: 2, [DT.DOUBLE]: 8 };
  return elementCount(t) * (bytesPer[t.dataType ?? 0] ?? 1);
}

/** Little-endian bytes of a tensor kept in typed fields (float_data, int32_data…), as raw_data would hold them. */
function typedFieldBytes(t: TensorProto): Uint8Array {
  const count = elementCount(t);
  switch (t.dataType) {
    case DT.FLOAT:
      return new Uint8Array(Float32Array.from(t.floatData ?? []).buffer);
    case DT.DOUBLE:
      return new Uint8Array(Float64Array.from(t.doubleData ?? []).buffer);
    case DT.INT64:
      return new Uint8Array(BigInt64Array.from((t.int64Data ?? []).map((v) => BigInt(String(v)))).buffer);
    case DT.INT32:
      return new Uint8Array(Int32Array.from(t.int32Data ?? []).buffer);
    case DT.UINT8:
      return Uint8Array.from(t.int32Data ?? []);
    case DT.INT8:
      return new Uint8Array(Int8Array.from(t.int32Data ?? []).buffer);
    case DT.FLOAT16:
      return new Uint8Array(Uint16Array.from(t.int32Data ?? []).buffer);
    default:
      if (count === 0) return new Uint8Array();
      throw new Error(`tensor ${t.name}: data type ${t.dataType} without raw_data is not supported`);
  }
}

export function dimsOf(t: TensorProto): number[] {
  return (t.dims ?? []).map((d) => Number(d));
}

export function elementCount(t: TensorProto): number {
  return dimsOf(t).reduce((a, b) => a * b, 1);
}

/** The float32 values of a FLOAT tensor, as a fresh aligned array. */
export function floatValues(t: TensorProto, dir: string): Float32Array {
  const bytes = tensorBytes(t, dir);
  const out = new Float32Array(elementCount(t));
  new Uint8Array(out.buffer).set(bytes.subarray(0, out.byteLength));
  return out;
}

/**
 * Reads and decodes a model file as protobuf messages, to edit and write
 * back; its tensor bytes are views into the file buffer, external data is
 * read lazily. (onnx-decode.ts's readOnnxModel gives the typed view instead.)
 */
export async function decodeOnnxFile(path: string): Promise<DecodedModel> {
  const bytes = await readRegularFile(path);
  const model = decodeModel(bytes);
  const locations = new Set<string>();
  for (const t of model.graph?.initializer ?? []) {
    if (t.dataLocation === EXTERNAL) {
      const location = t.externalData?.find((e) => e.key === 'location')?.value;
      if (location) locations.add(location);
    }
  }
  const dir = dirname(path);
  return { model, dir, files: [path, ...[...locations].sort().map((l) => join(dir, l))] };
}

/** A tensor proto whose bytes are raw little-endian data. */
export function rawTensor(name: string, dataType: number, dims: readonly number[], bytes: Uint8Array): TensorProto {
  return { name, dataType, dims: [...dims], rawData: bytes };
}

export function floatTensor(name: string, dims: readonly number[], values: Float32Array): TensorProto {
  return rawTensor(name, DT.FLOAT, dims, new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
}

export function uint8Tensor(name: string, dims: readonly number[], values: Uint8Array): TensorProto {
  return rawTensor(name, DT.UINT8, dims, values);
}

/** An INT attribute. */
export function intAttr(name: string, value: number): AttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
}

/** A node; domain '' is the default ONNX domain. */
export function node(opType: string, name: string, inputs: readonly string[], outputs: readonly string[], attribute: AttributeProto[] = [], domain = ''): NodeProto {
  return { opType, name, input: [...inputs], output: [...outputs], attribute, domain };
}

/** Adds an opset import (e.g. com.microsoft 1) unless present. */
export function ensureOpset(model: ModelProto, domain: string, version: number): void {
  const imports = model.opsetImport ?? [];
  if (!imports.some((o) => (o.domain ?? '') === domain)) imports.push({ domain, version });
  model.opsetImport = imports;
}

/** Opset of the default domain. */
export function defaultOpset(model: ModelProto): number {
  return Number(model.opsetImport?.find((o) => (o.domain ?? '') === '')?.version ?? 0);
}

/** Records in the model's metadata what was done to it, so a reader of the file can tell. */
export function tagVariant(model: ModelProto, dtype: string, method: string): void {
  const props = (model.metadataProps ?? []).filter((p) => p.key !== 'inferbench.variant' && p.key !== 'inferbench.variant_method');
  props.push({ key: 'inferbench.variant', value: dtype }, { key: 'inferbench.variant_method', value: method });
  model.metadataProps = props;
}

/** The method tagVariant recorded in a model, or null for a file inferbench did not write. */
export function variantMethodOf(model: ModelProto): string | null {
  return model.metadataProps?.find((p) => p.key === 'inferbench.variant_method')?.value ?? null;
}

/** The file operations writing needs; tests pass one that fails (ENOSPC) to check nothing partial is left. */
export interface ModelWriteFs {
  open(path: string): Promise<{ write(data: Uint8Array): Promise<void>; close(): Promise<void> }>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string): Promise<void>;
}

export const nodeWriteFs: ModelWriteFs = {
  async open(path) {
    const handle = await fsp.open(path, 'wx');
    return {
      async write(data) {
        let done = 0;
        while (done < data.byteLength) done += (await handle.write(data, done, data.byteLength - done)).bytesWritten;
      },
      close: () => handle.close(),
    };
  },
  rename: (from, to) => fsp.rename(from, to),
  rm: (path) => fsp.rm(path, { force: true }),
};

export interface WriteModelOptions {
  /** Tensor bytes above which initializers go to `<file>_data`; default just under protobuf's 2 GiB limit. */
  readonly externalDataAbove?: number;
  readonly fs?: ModelWriteFs;
}

const GRAPH_FIELD = 7;
const INITIALIZER_FIELD = 5;
const RAW_DATA_FIELD = 9;

/** Bytes a tensor keeps in raw_data or in an external file; 0 for one kept in typed fields (float_data…). */
function storedSize(t: TensorProto): number {
  return t.dataLocation === EXTERNAL ? externalLength(t) : (t.rawData?.byteLength ?? 0);
}

/**
 * Writes `model` to `path` (atomically, with its external-data file when the
 * tensors pass the threshold). `dir` is where the source's external data
 * lives, for tensors still stored there. Returns the bytes written in all.
 */
export async function writeOnnxModel(model: ModelProto, path: string, dir: string, options: WriteModelOptions = {}): Promise<number> {
  const fs = options.fs ?? nodeWriteFs;
  const inits = model.graph?.initializer ?? [];
  const total = inits.reduce((sum, t) => sum + storedSize(t), 0);
  const external = total > (options.externalDataAbove ?? PROTOBUF_LIMIT - 64 * 1024 * 1024);
  const dataName = `${basename(path)}_data`;
  const suffix = `.partial-${randomBytes(4).toString('hex')}`;
  const temp = `${path}${suffix}`;
  const dataPath = join(dirname(path), dataName);
  const dataTemp = `${dataPath}${suffix}`;

  // Every initializer's header (its fields but its bytes), and where its bytes go.
  let dataOffset = 0;
  const pieces = inits.map((t) => {
    const { rawData: _r, externalData: _e, dataLocation: _d, ...rest } = t;
    const size = storedSize(t);
    if (size === 0) return { t, size, head: onnx.TensorProto.encode(rest).finish(), offset: -1 };
    if (!external) return { t, size, head: onnx.TensorProto.encode(rest).finish(), offset: -1 };
    if (size >= ALIGN && dataOffset % ALIGN !== 0) dataOffset += ALIGN - (dataOffset % ALIGN);
    const offset = dataOffset;
    dataOffset += size;
    const externalData = [{ key: 'location', value: dataName }, { key: 'offset', value: String(offset) }, { key: 'length', value: String(size) }];
    return { t, size, head: onnx.TensorProto.encode({ ...rest, dataLocation: EXTERNAL, externalData }).finish(), offset };
  });
  const inlineBytes = (p: (typeof pieces)[number]): number => (p.offset < 0 && p.size > 0 ? lengthField(RAW_DATA_FIELD, p.size).byteLength + p.size : 0);
  const { initializer: _i, ...graphRest } = model.graph ?? {};
  const graphHead = onnx.GraphProto.encode({ ...graphRest, initializer: [] }).finish();
  const graphLength = pieces.reduce((sum, p) => {
    const length = p.head.byteLength + inlineBytes(p);
    return sum + lengthField(INITIALIZER_FIELD, length).byteLength + length;
  }, graphHead.byteLength);
  const { graph: _g, ...modelRest } = model;

  let written = 0;
  const opened: { write(data: Uint8Array): Promise<void>; close(): Promise<void> }[] = [];
  try {
    const out = await fs.open(temp);
    opened.push(out);
    const data = external ? await fs.open(dataTemp) : null;
    if (data) opened.push(data);
    const write = async (sink: typeof out, bytes: Uint8Array): Promise<void> => {
      await sink.write(bytes);
      written += bytes.byteLength;
    };
    await write(out, onnx.ModelProto.encode(modelRest).finish());
    await write(out, lengthField(GRAPH_FIELD, graphLength));
    await write(out, graphHead);
    let dataWritten = 0;
    for (const p of pieces) {
      await write(out, lengthField(INITIALIZER_FIELD, p.head.byteLength + inlineBytes(p)));
      await write(out, p.head);
      if (p.size === 0) continue;
      const bytes = tensorBytes(p.t, dir);
      if (p.offset < 0) {
        await write(out, lengthField(RAW_DATA_FIELD, p.size));
        await write(out, bytes);
      } else if (data) {
        if (p.offset > dataWritten) await write(data, new Uint8Array(p.offset - dataWritten));
        await write(data, bytes);
        dataWritten = p.offset + p.size;
      }
    }
    while (opened.length > 0) await opened.pop()?.close();
    if (external) await fs.rename(dataTemp, dataPath);
    await fs.rename(temp, path);
  } catch (err) {
    for (const handle of opened) await handle.close().catch(() => undefined);
    await fs.rm(temp).catch(() => undefined);
    if (external) await fs.rm(dataTemp).catch(() => undefined);
    throw err;
  }
  return written;
}
