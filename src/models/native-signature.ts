/**
 * Model folders that bring a tfjs GraphModel (`model.json`) or a TensorFlow
 * SavedModel (`saved_model.pb`) instead of an ONNX graph: which formats a
 * folder holds, and each format's signature (inputs, outputs) and op counts,
 * read from the files themselves (the GraphModel's JSON signature, the
 * SavedModel's `serve` MetaGraphDef and `serving_default` SignatureDef).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HostDType } from '../core/tensor.js';
import { UserError } from '../core/errors.js';
import { checkNativeFolder } from './native-folder.js';
import type { InputSpec } from './benchmark-model.js';
import { NATIVE_FILE, type NativeFormat } from './tf-export/native-formats.js';
import type { ShapeMessage } from './tf-export/tf-proto.js';

/** TensorFlow DataType numbers and names (types.proto) as host dtypes; int32 family and int64 kept apart. */
const DTYPES: Readonly<Record<string, HostDType>> = {
  DT_FLOAT: 'float32', DT_INT32: 'int32', DT_INT64: 'int64', DT_BOOL: 'bool', 1: 'float32', 3: 'int32', 9: 'int64', 10: 'bool',
};
const DTYPE_NAMES: Readonly<Record<number, string>> = { 1: 'DT_FLOAT', 2: 'DT_DOUBLE', 3: 'DT_INT32', 4: 'DT_UINT8', 7: 'DT_STRING', 9: 'DT_INT64', 10: 'DT_BOOL', 19: 'DT_HALF' };

/** What a native model file says about itself. */
export interface NativeSignature {
  readonly format: NativeFormat;
  readonly file: string;
  readonly inputs: readonly InputSpec[];
  readonly outputs: readonly InputSpec[];
  /** TF op types with counts, most used first. */
  readonly ops: readonly { readonly op: string; readonly count: number }[];
  readonly nodeCount: number;
  /** Free text the file records about its making (generatedBy, meta_graph_version). */
  readonly producer: string;
}

/** The native formats a folder holds, in the order engines prefer them. */
export function nativeFormatsIn(dir: string): NativeFormat[] {
  return (['saved-model', 'graph-model'] as const).filter((f) => existsSync(join(dir, NATIVE_FILE[f])));
}

function dtypeOf(code: string | number, where: string): HostDType {
  const d = DTYPES[String(code)];
  if (!d) throw new UserError(`${where} has dtype ${typeof code === 'number' ? (DTYPE_NAMES[code] ?? code) : code}, which inferbench does not feed`, 'export the model with float32, int32, int64 or bool inputs');
  return d;
}

function opCounts(ops: readonly string[]): { op: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const op of ops) counts.set(op, (counts.get(op) ?? 0) + 1);
  return [...counts].map(([op, count]) => ({ op, count })).sort((a, b) => b.count - a.count || a.op.localeCompare(b.op));
}

/** A dim as InputSpec writes it: its size, or a name for a dynamic (-1) dim. */
function dimOf(size: number, i: number): number | string {
  return size >= 0 ? size : i === 0 ? 'batch' : `dim${i}`;
}

interface GraphModelJson {
  readonly format?: string;
  readonly generatedBy?: string;
  readonly modelTopology?: { node?: { op?: string }[] };
  readonly signature?: Record<'inputs' | 'outputs', Record<string, { dtype?: string; tensorShape?: { dim?: { size?: string | number }[] } }> | undefined>;
}

async function graphModelSignature(file: string): Promise<NativeSignature> {
  let json: GraphModelJson;
  try {
    json = JSON.parse(await readFile(file, 'utf8')) as GraphModelJson;
  } catch (err) {
    throw new UserError(`cannot read ${file} as a tfjs GraphModel: ${(err as Error).message}`, 'check that model.json is complete (re-export it)');
  }
  if (json.format !== 'graph-model' || !json.modelTopology) {
    throw new UserError(`${file} is not a tfjs GraphModel (format ${String(json.format)})`, 'inferbench runs GraphModels (tensorflowjs_converter --output_format tfjs_graph_model, or `inferbench export --format graph-model`)');
  }
  const entries = (kind: 'inputs' | 'outputs'): InputSpec[] => {
    const sig = json.signature?.[kind];
    if (!sig || Object.keys(sig).length === 0) throw new UserError(`${file} has no signature ${kind}`, 'convert the model with a signature (tensorflowjs_converter does by default), or `inferbench export --format graph-model`');
    return Object.entries(sig).map(([name, t]) => ({ name, dtype: dtypeOf(t.dtype ?? '', `${kind.slice(0, -1)} '${name}' of ${file}`), shape: (t.tensorShape?.dim ?? []).map((d, i) => dimOf(Number(d.size ?? -1), i)) }));
  };
  const nodes = json.modelTopology.node ?? [];
  return { format: 'graph-model', file, inputs: entries('inputs'), outputs: entries('outputs'), ops: opCounts(nodes.map((n) => n.op ?? '?')), nodeCount: nodes.length, producer: json.generatedBy ?? '' };
}

async function savedModelSignature(file: string): Promise<NativeSignature> {
  // protobufjs (TensorFlow's messages) loads only for a SavedModel folder.
  const { decodeSavedModel } = await import('./tf-export/tf-proto.js');
  let saved;
  try {
    saved = decodeSavedModel(new Uint8Array(await readFile(file)));
  } catch (err) {
    throw new UserError(`cannot read ${file} as a SavedModel: ${(err as Error).message}`, 'check that saved_model.pb is complete (re-export it)');
  }
  const meta = saved.meta_graphs?.find((m) => m.meta_info_def?.tags?.includes('serve'));
  if (!meta) throw new UserError(`${file} has no MetaGraphDef tagged 'serve'`, 'save the model with the serve tag (tf.saved_model.save does), or `inferbench export --format saved-model`');
  const signature = meta.signature_def?.['serving_default'];
  if (!signature) throw new UserError(`${file} has no 'serving_default' signature`, 'save the model with a serving_default signature, or `inferbench export --format saved-model`');
  const entries = (kind: 'inputs' | 'outputs'): InputSpec[] =>
    Object.entries(signature[kind] ?? {}).map(([name, t]) => ({ name, dtype: dtypeOf(t.dtype, `${kind.slice(0, -1)} '${name}' of ${file}`), shape: ((t.tensor_shape as ShapeMessage | undefined)?.dim ?? []).map((d, i) => dimOf(Number(d.size ?? -1), i)) }));
  const nodes = meta.graph_def?.node ?? [];
  return { format: 'saved-model', file, inputs: entries('inputs'), outputs: entries('outputs'), ops: opCounts(nodes.map((n) => n.op)), nodeCount: nodes.length, producer: meta.meta_info_def?.meta_graph_version ?? '' };
}

/** The signature of the `format` model in `dir`, once the folder passed checkNativeFolder. */
export async function readNativeSignature(dir: string, format: NativeFormat): Promise<NativeSignature> {
  checkNativeFolder(dir, format);
  const file = join(dir, NATIVE_FILE[format]);
  return SIGNATURE_READERS[format](file);
}

/** Each format's signature reader, by format: a table, so no caller switches on a format's name. */
const SIGNATURE_READERS: Readonly<Record<NativeFormat, (file: string) => NativeSignature | Promise<NativeSignature>>> = { 'graph-model': graphModelSignature, 'saved-model': savedModelSignature };
