/**
 * Writes the precision variants of a generated model beside its
 * `onnx/model.onnx`, under the names transformers.js looks for, so inferbench
 * engines and the `@huggingface/transformers` pipeline open the same files.
 * The writers are the general ones (`src/models/quantize/`) that also serve
 * users' exports; only here, in a folder inferbench generated into its own
 * cache, do they write beside the source. q8-static depends on the run's
 * dataset, so it always goes through the quantize cache instead.
 */
import { join } from 'node:path';
import { dtypeOnnxFile, type ModelDtype } from '../../core/dtypes.js';
import { decodeOnnxFile, variantMethodOf, writeOnnxModel } from '../../core/onnx/onnx-file.js';
import { VariantRefused, writeVariantGraph } from '../quantize/variant-writers.js';
import { isWritableDtype, WRITABLE_DTYPES } from '../quantize/writable-dtypes.js';
import { exists } from './generated-model.js';

/** Dtypes inferbench can write beside a generated model (fp32 is the model itself). */
export function generatableDtypes(): ModelDtype[] {
  return ['fp32', ...WRITABLE_DTYPES.filter((d) => d !== 'q8-static')];
}

/**
 * Makes sure `<dir>/onnx/model<suffix>.onnx` exists for a generated model
 * folder, writing it from `onnx/model.onnx` on first use (under a temporary
 * name, then renamed, so an interrupted write never leaves a truncated graph
 * that a later run would open). Returns the path and how it was written
 * (read back from the file's metadata when an earlier run wrote it), or a
 * reason when this dtype cannot be generated.
 */
export async function ensureVariantFile(dir: string, dtype: ModelDtype): Promise<{ path: string; method: string } | { skip: string }> {
  const file = dtypeOnnxFile(dtype);
  const path = join(dir, file);
  if (await exists(path)) return { path, method: variantMethodOf((await decodeOnnxFile(path)).model) ?? 'written by an earlier inferbench, which did not record how' };
  if (!isWritableDtype(dtype) || dtype === 'q8-static') {
    return { skip: `${file}: inferbench generates only ${generatableDtypes().join(', ')} variants beside its generated models` };
  }
  const decoded = await decodeOnnxFile(join(dir, dtypeOnnxFile('fp32')));
  let method: string;
  try {
    method = writeVariantGraph(decoded, dtype);
  } catch (err) {
    if (err instanceof VariantRefused) return { skip: err.message };
    throw err;
  }
  await writeOnnxModel(decoded.model, path, decoded.dir);
  return { path, method };
}
