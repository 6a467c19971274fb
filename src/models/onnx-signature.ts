import { decodeModel, onnx, type ModelProto, type ValueInfoProto } from '../core/onnx/onnx-proto.js';
import type { HostDType } from '../core/tensor.js';
import type { InputSpec } from './benchmark-model.js';
import { UserError } from '../core/errors.js';
import { readRegularFile } from '../core/regular-file.js';

const DTYPES: Partial<Record<number, HostDType>> = {
  [onnx.TensorProto.DataType.FLOAT]: 'float32',
  [onnx.TensorProto.DataType.INT64]: 'int64',
  [onnx.TensorProto.DataType.INT32]: 'int32',
  [onnx.TensorProto.DataType.BOOL]: 'bool',
};

/** Graph inputs and outputs of an ONNX file. */
export interface OnnxSignature {
  readonly inputs: InputSpec[];
  readonly outputs: InputSpec[];
}

function toSpec(v: ValueInfoProto): InputSpec {
  const tensor = v.type?.tensorType;
  const dtype = DTYPES[tensor?.elemType ?? 0] ?? 'float32';
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
  let model: ModelProto;
  try {
    model = decodeModel(new Uint8Array(bytes));
  } catch (err) {
    throw new UserError(`${path} is not a readable ONNX model: ${(err as Error).message}`, fix);
  }
  const graph = model.graph;
  if (!graph || (graph.input ?? []).length === 0) throw new UserError(`${path} holds no ONNX graph with inputs (${bytes.length} bytes)`, fix);
  const initializers = new Set((graph?.initializer ?? []).map((t) => t.name));
  return {
    inputs: (graph?.input ?? []).filter((v) => !initializers.has(v.name ?? '')).map(toSpec),
    outputs: (graph?.output ?? []).map(toSpec),
  };
}
