/**
 * Cross-row figures of precision variants and fixed sequence lengths, shared
 * by the terminal and CSV reports: the speedup of each variant over its fp32
 * graph on the same engine, batch, threads and sequence length, and the
 * model-size and parity cells of the MODEL SIZE table.
 */
import type { CellResult, ModelInfo, RunRecord } from '../src/core/results.js';
import { cellFigures } from './cell-figures.js';
import { formatBytes, formatRatio } from '../src/core/units.js';

/** True when any cell ran on fixed-length synthetic inputs. */
export function hasSequenceLengths(run: RunRecord): boolean {
  return run.cells.some((c) => typeof c.sequenceLength === 'number');
}

/** True when any model row is a `--dtype` variant. */
export function hasVariants(run: RunRecord): boolean {
  return run.models.some((m) => m.variant);
}

/** The fp32 row of the model a variant belongs to, when the run has one. */
function fp32RowOf(run: RunRecord, model: ModelInfo): ModelInfo | undefined {
  const of = model.variant?.of;
  return of === undefined ? undefined : run.models.find((m) => m.variant?.of === of && m.variant.dtype === 'fp32');
}

/**
 * fp32 engine time per batch ÷ this cell's (means of round means, views.ts)
 * for the same engine, batch size, requested threads and sequence length;
 * null when either cell did not complete or saw no whole pass (other rows),
 * or the model has no fp32 row. Above 1 means the variant is faster.
 */
export function speedupOverFp32(run: RunRecord): (cell: CellResult) => number | null {
  const models = new Map(run.models.map((m) => [m.name, m]));
  return (cell) => {
    const info = models.get(cell.model);
    if (cell.state !== 'completed' || !info) return null;
    const fp32 = fp32RowOf(run, info);
    if (!fp32) return null;
    const ref = run.cells.find(
      (c) =>
        c.state === 'completed' &&
        c.model === fp32.name &&
        c.engine === cell.engine &&
        c.batchSize === cell.batchSize &&
        c.requestedThreads === cell.requestedThreads &&
        (c.sequenceLength ?? null) === (cell.sequenceLength ?? null),
    );
    if (ref?.state !== 'completed') return null;
    const [mine, theirs] = [cellFigures(cell), cellFigures(ref)];
    if (mine.partial !== null || theirs.partial !== null || !(mine.engine.meanMs > 0)) return null;
    return theirs.engine.meanMs / mine.engine.meanMs;
  };
}

/** Speedup as shown in the speed table: `2.1×`, or empty when it cannot be computed. */
export function formatSpeedup(ratio: number | null): string {
  return ratio === null ? '' : formatRatio(ratio);
}

/** Size on disk of a model row; `missing` for a variant whose file does not exist. */
export function sizeText(model: ModelInfo): string {
  return model.variant && model.sizeBytes === 0 ? 'missing' : formatBytes(model.sizeBytes);
}

/** A variant's size as a fraction of its fp32 graph's, e.g. `0.27× fp32`; empty when not comparable. */
export function sizeVsFp32(run: RunRecord, model: ModelInfo): string {
  const fp32 = fp32RowOf(run, model);
  if (!fp32 || fp32.sizeBytes === 0 || model.sizeBytes === 0 || fp32 === model) return '';
  return `${(model.sizeBytes / fp32.sizeBytes).toFixed(2)}× fp32`;
}

/** Parity with fp32 as one short cell: `max |Δ| 0.0124 · argmax 100%`; empty when not measured. */
export function parityText(model: ModelInfo): string {
  const p = model.variant?.parity;
  if (!p) return '';
  if (p.cosine) return `cosine min ${p.cosine.min.toFixed(6)} · mean ${p.cosine.mean.toFixed(6)} (${p.rows} rows)`;
  return `max |Δ| ${p.maxAbsDiff.toPrecision(3)} · argmax ${(p.argmaxAgreement * 100).toFixed(p.argmaxAgreement === 1 ? 0 : 1)}% (${p.rows} rows)`;
}

/** One line of the seed question's answer: a variant on one engine, batch and sequence length, against its fp32 graph there. */
export interface VariantComparisonRow {
  /** Model the variant belongs to. */
  readonly of: string;
  readonly dtype: string;
  readonly engine: string;
  readonly batchSize: number;
  readonly requestedThreads: number | null;
  /** Threads the engine reported using. */
  readonly threads: number | null;
  readonly sequenceLength: number | null;
  readonly sizeBytes: number;
  /** Size ÷ the fp32 graph's; null without an fp32 row. */
  readonly sizeRatio: number | null;
  /** fp32 mean ÷ variant mean on the same engine, batch, threads and length; null when either did not complete. */
  readonly speedup: number | null;
  readonly accuracy: number | null;
  /** fp32's accuracy minus the variant's on the same cell, in accuracy units (0.02 = 2 points); null without both. */
  readonly accuracyDrop: number | null;
  /** Share of rows whose argmax equals the fp32 graph's (onnx-cpu, parity rows); null when not measured. */
  readonly argmaxAgreement: number | null;
  /** Embeddings: the smallest and mean cosine of the variant's vectors with fp32's (onnx-cpu, parity rows); null for classifiers or when not measured. */
  readonly cosine: { readonly min: number; readonly mean: number } | null;
  /** 'inferbench' when inferbench wrote the file, else the model's own file. */
  readonly writtenBy: 'inferbench' | 'model';
  readonly method: string | null;
}

/** Every completed cell of every non-fp32 variant, compared with its fp32 graph: size, speed-up, accuracy drop, argmax agreement. */
export function variantComparison(run: RunRecord): VariantComparisonRow[] {
  const speedup = speedupOverFp32(run);
  const models = new Map(run.models.map((m) => [m.name, m]));
  const rows: VariantComparisonRow[] = [];
  for (const cell of run.cells) {
    const model = models.get(cell.model);
    const variant = model?.variant;
    if (!model || !variant || variant.dtype === 'fp32' || cell.state !== 'completed') continue;
    const fp32 = fp32RowOf(run, model);
    const fp32Cell = fp32
      ? run.cells.find((c) => c.state === 'completed' && c.model === fp32.name && c.engine === cell.engine && c.batchSize === cell.batchSize && c.requestedThreads === cell.requestedThreads && (c.sequenceLength ?? null) === (cell.sequenceLength ?? null))
      : undefined;
    const accuracy = cell.accuracy ?? null;
    const fp32Accuracy = fp32Cell?.state === 'completed' ? (fp32Cell.accuracy ?? null) : null;
    rows.push({
      of: variant.of,
      dtype: variant.dtype,
      engine: cell.engine,
      batchSize: cell.batchSize,
      requestedThreads: cell.requestedThreads,
      threads: cellFigures(cell).threads,
      sequenceLength: cell.sequenceLength ?? null,
      sizeBytes: model.sizeBytes,
      sizeRatio: fp32 && fp32.sizeBytes > 0 && model.sizeBytes > 0 ? model.sizeBytes / fp32.sizeBytes : null,
      speedup: speedup(cell),
      accuracy,
      accuracyDrop: accuracy !== null && fp32Accuracy !== null ? fp32Accuracy - accuracy : null,
      argmaxAgreement: variant.parity?.argmaxAgreement ?? null,
      cosine: variant.parity?.cosine ?? null,
      writtenBy: variant.quantizedBy === 'inferbench' ? 'inferbench' : 'model',
      method: variant.method ?? null,
    });
  }
  return rows;
}
