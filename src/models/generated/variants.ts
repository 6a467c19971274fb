/**
 * Writes the precision variants of a generated model beside its
 * `onnx/model.onnx`, under the names transformers.js looks for, so inferbench
 * engines and the `@huggingface/transformers` pipeline load the same files.
 * Hub and local models bring their own variant files; only generated models
 * (which have no Hub repo) get them written here.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dtypeOnnxFile, type ModelDtype } from '../../core/dtypes.js';
import { decodeModelProto, encodeModelProto, type ModelProto } from './variant-graph.js';
import { convertToFloat16 } from './variant-fp16.js';
import { quantizeDynamicInt8 } from './variant-int8.js';
import { quantizeMatMulNBits } from './variant-int4.js';
import { exists } from './generated-model.js';

/** How each generatable dtype is derived from the fp32 graph. */
const CONVERTERS: Partial<Record<ModelDtype, (model: ModelProto) => ModelProto>> = {
  fp16: convertToFloat16,
  // uint8 weights for q8: onnxruntime's x86 u8s8 kernels (AVX2 without VNNI) can saturate with int8 weights.
  q8: (m) => quantizeDynamicInt8(m, 'uint8', 'q8'),
  int8: (m) => quantizeDynamicInt8(m, 'int8', 'int8'),
  uint8: (m) => quantizeDynamicInt8(m, 'uint8', 'uint8'),
  q4: quantizeMatMulNBits,
};

/** Dtypes inferbench can write for a generated model (fp32 is the model itself). */
export function generatableDtypes(): ModelDtype[] {
  return ['fp32', ...(Object.keys(CONVERTERS) as ModelDtype[])];
}

/** The variant graph bytes for `dtype`, from the fp32 graph's bytes. */
export function buildVariant(fp32: Uint8Array, dtype: ModelDtype): Uint8Array {
  if (dtype === 'fp32') return fp32;
  const convert = CONVERTERS[dtype];
  if (!convert) throw new Error(`inferbench cannot generate ${dtype} variants`);
  return encodeModelProto(convert(decodeModelProto(fp32)));
}


/**
 * Makes sure `<dir>/onnx/model<suffix>.onnx` exists for a generated model
 * folder, writing it from `onnx/model.onnx` on first use. The file is written
 * under a temporary name and renamed, so an interrupted write never leaves a
 * truncated graph that a later run would load. Returns the path, or a reason
 * when this dtype cannot be generated.
 */
export async function ensureVariantFile(dir: string, dtype: ModelDtype): Promise<{ path: string } | { skip: string }> {
  const file = dtypeOnnxFile(dtype);
  const path = join(dir, file);
  if (await exists(path)) return { path };
  if (!CONVERTERS[dtype]) {
    return { skip: `${file}: inferbench generates only ${generatableDtypes().join(', ')} variants of its generated models` };
  }
  const bytes = buildVariant(new Uint8Array(await readFile(join(dir, dtypeOnnxFile('fp32')))), dtype);
  const temp = `${path}.partial-${randomBytes(4).toString('hex')}`;
  try {
    await writeFile(temp, bytes);
    await rename(temp, path);
  } finally {
    await rm(temp, { force: true });
  }
  return { path };
}
