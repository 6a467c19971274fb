/**
 * Which dtypes inferbench writes itself, apart from the writers: a run plans
 * its model files (and checks --dtype) at every CLI start, while the writers
 * import the ONNX file codec (onnx-proto, about 0.1 s of CPU to load).
 */
import type { ModelDtype } from '../../core/dtypes.js';

/** Dtypes inferbench writes itself when a model lacks the file. */
export const WRITABLE_DTYPES = ['fp16', 'q8', 'int8', 'uint8', 'q4', 'q8-static'] as const satisfies readonly ModelDtype[];
export type WritableDtype = (typeof WRITABLE_DTYPES)[number];

export function isWritableDtype(dtype: ModelDtype): dtype is WritableDtype {
  return (WRITABLE_DTYPES as readonly string[]).includes(dtype);
}
