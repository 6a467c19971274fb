/**
 * How far a precision variant's outputs (fp16, q8, q4…) move from the fp32
 * model's on the same rows: the accuracy cost of quantization, beside its
 * speed and size. The comparison is pure; `measureVariantParity` runs both
 * graphs on one engine to feed it.
 */
export type { VariantParity } from '../core/results.js';
import { openOn, type BenchmarkModel } from './benchmark-model.js';
import type { Engine } from '../core/engine.js';
import type { EngineSession } from '../core/engine-session.js';
import type { HostTensor, TensorMap } from '../core/tensor.js';
import type { VariantParity } from '../core/results.js';
import { cosineSimilarity, EMBEDDING_OUTPUT_NAME } from '../core/parity.js';
import type { DataRow } from '../../datasets/dataset.js';
import type { ResolvedColumns } from '../../datasets/columns.js';

/** Running sums of a comparison over several batches. */
export interface ParityAccumulator {
  maxAbsDiff: number;
  sumAbsDiff: number;
  elements: number;
  agreeingRows: number;
  rows: number;
  /** Sentence embeddings only: smallest and summed per-row cosine with the reference; null for other outputs. */
  cosine: { min: number; sum: number } | null;
}

export function emptyParity(): ParityAccumulator {
  return { maxAbsDiff: 0, sumAbsDiff: 0, elements: 0, agreeingRows: 0, rows: 0, cosine: null };
}

function asNumbers(t: HostTensor): ArrayLike<number> {
  return t.dtype === 'int64' ? Array.from(t.data as BigInt64Array, Number) : (t.data as ArrayLike<number>);
}

function argmax(values: ArrayLike<number>, start: number, width: number): number {
  let best = start;
  for (let i = start + 1; i < start + width; i++) if ((values[i] as number) > (values[best] as number)) best = i;
  return best - start;
}

/**
 * Adds one batch to `acc`: element-wise differences of the output both maps
 * share (the first by name, or `outputName`), and per-row argmax over the
 * last axis. Shapes must match; a mismatch is a bug in the variant, so it throws.
 */
export function accumulateParity(acc: ParityAccumulator, reference: TensorMap, candidate: TensorMap, outputName?: string): ParityAccumulator {
  const name = outputName ?? Object.keys(reference).sort().find((k) => k in candidate);
  const ref = name === undefined ? undefined : reference[name];
  const cand = name === undefined ? undefined : candidate[name];
  if (!ref || !cand || name === undefined) throw new Error(`no output in common to compare (reference has ${Object.keys(reference).join(', ')}; variant has ${Object.keys(candidate).join(', ')})`);
  if (ref.dims.join('x') !== cand.dims.join('x')) throw new Error(`output ${name} has shape [${cand.dims.join(', ')}] but the reference has [${ref.dims.join(', ')}]`);
  const a = asNumbers(ref);
  const b = asNumbers(cand);
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs((a[i] as number) - (b[i] as number));
    // NaN in either output is total disagreement, not "no difference".
    const diff = Number.isNaN(d) ? Infinity : d;
    if (diff > acc.maxAbsDiff) acc.maxAbsDiff = diff;
    acc.sumAbsDiff += diff;
  }
  acc.elements += a.length;
  const width = ref.dims[ref.dims.length - 1] ?? 1;
  const rows = width > 0 ? a.length / width : 0;
  for (let r = 0; r < rows; r++) if (argmax(a, r * width, width) === argmax(b, r * width, width)) acc.agreeingRows++;
  if (name === EMBEDDING_OUTPUT_NAME) {
    acc.cosine ??= { min: 1, sum: 0 };
    for (let r = 0; r < rows; r++) {
      const c = cosineSimilarity(a, b, r * width, width);
      const cos = Number.isNaN(c) ? -Infinity : c;
      acc.cosine.min = Math.min(acc.cosine.min, cos);
      acc.cosine.sum += cos;
    }
  }
  acc.rows += rows;
  return acc;
}

/** The summary of an accumulator. */
export function finishParity(acc: ParityAccumulator, reference: string, engine: string): VariantParity {
  return {
    reference,
    engine,
    maxAbsDiff: acc.maxAbsDiff,
    meanAbsDiff: acc.elements > 0 ? acc.sumAbsDiff / acc.elements : 0,
    argmaxAgreement: acc.rows > 0 ? acc.agreeingRows / acc.rows : 0,
    rows: acc.rows,
    ...(acc.cosine && acc.rows > 0 ? { cosine: { min: acc.cosine.min, mean: acc.cosine.sum / acc.rows } } : {}),
  };
}

/** Compares two output maps of the same rows in one call. */
export function compareVariantOutputs(reference: TensorMap, candidate: TensorMap, labels: { reference: string; engine: string }): VariantParity {
  return finishParity(accumulateParity(emptyParity(), reference, candidate), labels.reference, labels.engine);
}

/**
 * Runs `reference` and `variant` on `engine` over the same batches (inputs
 * built by the reference model, so both see identical tensors) and compares
 * their outputs.
 */
export async function measureVariantParity(
  reference: BenchmarkModel,
  variant: BenchmarkModel,
  batches: readonly (readonly DataRow[])[],
  columns: ResolvedColumns,
  engine: Engine,
  referenceDtype = 'fp32',
): Promise<VariantParity> {
  const open = (m: BenchmarkModel): Promise<EngineSession> => openOn(engine, m);
  const refSession = await open(reference);
  try {
    const varSession = await open(variant);
    try {
      const acc = emptyParity();
      for (const rows of batches) {
        const inputs = await reference.prepareBatch(rows, columns);
        accumulateParity(acc, await refSession.run(inputs), await varSession.run(inputs));
      }
      return finishParity(acc, referenceDtype, engine.id);
    } finally {
      await varSession.dispose();
    }
  } finally {
    await refSession.dispose();
  }
}
