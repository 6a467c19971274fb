import type { ModelProto, ValueInfoProto } from '../core/onnx/onnx-proto.js';
import type { HostDType } from '../core/tensor.js';
import type { InputSpec } from './benchmark-model.js';
import { UserError } from '../core/errors.js';
import { readRegularFile } from '../core/regular-file.js';

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
 * Reads the signature from the ONNX file itself, so a model's input list
 * (with or without token_type_ids, say) is never guessed from its family.
 */
export async function readOnnxSignature(path: string): Promise<OnnxSignature> {
  // Not a regular file (a FIFO would block forever): refused by name before reading.
  const bytes = await readRegularFile(path);
  const fix = 'export the model again (e.g. with optimum-cli export onnx)';
  if (bytes.length === 0) throw new UserError(`${path} is empty (0 bytes), not an ONNX model`, fix);
  const proto = await onnxProto();
  let model: ModelProto;
  try {
    model = proto.decodeModel(new Uint8Array(bytes));
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
