/**
 * Precision variants of one model, named the way transformers.js names the
 * ONNX files of a Hub repo (`onnx/model_quantized.onnx` for q8, …), so
 * `--dtype q8` picks the same file the `@huggingface/transformers` pipeline
 * would load with `{ dtype: 'q8' }`.
 */
import { UserError } from './errors.js';
import { isOwnName, nameTable } from './name-lookup.js';
import type { Precision } from './engine-session.js';

/**
 * File-name suffix of each dtype: transformers.js 4.x
 * `DEFAULT_DTYPE_SUFFIX_MAPPING` (src/utils/dtypes.js), copied because the
 * package does not export it and importing it would load the whole library.
 */
export const DTYPE_SUFFIXES = nameTable({
  fp32: '',
  fp16: '_fp16',
  int8: '_int8',
  uint8: '_uint8',
  q8: '_quantized',
  q4: '_q4',
  q2: '_q2',
  q1: '_q1',
  q4f16: '_q4f16',
  q2f16: '_q2f16',
  q1f16: '_q1f16',
  bnb4: '_bnb4',
  // inferbench's own: static INT8 calibrated on the run's dataset. transformers.js has no such name, so no file of theirs is ever taken for it.
  'q8-static': '_q8static',
} as const);

/** A transformers.js dtype name. */
export type ModelDtype = keyof typeof DTYPE_SUFFIXES;

/** Precision each dtype's graph computes in, for result rows. */
const DTYPE_PRECISION: Readonly<Record<ModelDtype, Precision>> = nameTable({
  fp32: 'fp32',
  fp16: 'fp16',
  int8: 'int8',
  uint8: 'int8',
  q8: 'int8',
  q4: 'int4',
  bnb4: 'int4',
  q4f16: 'mixed',
  q2: 'unknown',
  q1: 'unknown',
  q2f16: 'mixed',
  q1f16: 'mixed',
  'q8-static': 'int8',
});

/** Every dtype name, in the order of the suffix table. */
export function dtypeNames(): ModelDtype[] {
  return Object.keys(DTYPE_SUFFIXES) as ModelDtype[];
}

/** Checks one name; an unknown one is a user error listing the valid names. */
export function asModelDtype(name: string, flag = '--dtype'): ModelDtype {
  if (!isOwnName(DTYPE_SUFFIXES, name)) {
    throw new UserError(`unknown dtype ${JSON.stringify(name)} in ${flag}`, `use one or more of: ${dtypeNames().join(', ')}`);
  }
  return name;
}

/** Parses `fp32,fp16,q8,q4`, dropping repeats but keeping the user's order. */
export function parseDtypes(names: readonly string[], flag = '--dtype'): ModelDtype[] {
  if (names.length === 0) throw new UserError(`${flag} is empty`, `give at least one of: ${dtypeNames().join(', ')}`);
  return [...new Set(names.map((n) => asModelDtype(n.trim(), flag)))];
}

/** Path of a dtype's graph inside a Hugging Face model folder, e.g. `onnx/model_q4.onnx`. */
export function dtypeOnnxFile(dtype: ModelDtype): string {
  return `onnx/model${DTYPE_SUFFIXES[dtype]}.onnx`;
}

/** The precision label of a dtype's graph. */
export function dtypePrecision(dtype: ModelDtype): Precision {
  return DTYPE_PRECISION[dtype];
}

/** The dtype whose file `onnx/<name>` is, or undefined for a file transformers.js would not name. */
export function dtypeOfOnnxFile(fileName: string): ModelDtype | undefined {
  const match = /^model(_[a-z0-9]+)?\.onnx$/.exec(fileName);
  if (!match) return undefined;
  const suffix = match[1] ?? '';
  return dtypeNames().find((d) => DTYPE_SUFFIXES[d] === suffix);
}
