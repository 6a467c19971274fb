import type { CellParity } from './results.js';
import type { TensorMap } from './tensor.js';

/** Absolute tolerance for fp32 outputs against the reference engine. */
export const DEFAULT_PARITY_TOLERANCE = 1e-4;
/** Rows per cell kept for parity; enough to catch a wrong kernel, bounded for large outputs. */
export const DEFAULT_PARITY_ROWS = 1024;

/**
 * Outputs of the first measured pass, one entry per row, so engines can be
 * compared row by row. Plain arrays keep it cheap to send from an isolated
 * child process.
 */
export interface RowOutputs {
  /** Output names in the order of each row's values. */
  readonly names: readonly string[];
  /** rows[i][k]: the i-th row's slice of output k, flattened. */
  readonly rows: number[][][];
}

/** Collects per-row output slices up to a row cap. */
export class OutputRecorder {
  private names: string[] | null = null;
  readonly rows: number[][][] = [];

  constructor(private readonly maxRows: number = DEFAULT_PARITY_ROWS) {}

  /** Adds one batch; outputs whose first axis is not the batch are left out. */
  add(outputs: TensorMap, batchRows: number): void {
    if (this.rows.length >= this.maxRows) return;
    this.names ??= Object.keys(outputs)
      .filter((n) => outputs[n]?.dims[0] === batchRows && outputs[n]?.dtype !== 'bool')
      .sort();
    const tensors = this.names.map((n) => outputs[n]);
    for (let r = 0; r < batchRows && this.rows.length < this.maxRows; r++) {
      const row: number[][] = [];
      for (const t of tensors) {
        if (!t || t.dims[0] !== batchRows) {
          row.push([]);
          continue;
        }
        const width = t.data.length / batchRows;
        const slice: number[] = new Array(width);
        for (let i = 0; i < width; i++) slice[i] = Number(t.data[r * width + i]);
        row.push(slice);
      }
      this.rows.push(row);
    }
  }

  result(): RowOutputs {
    return { names: this.names ?? [], rows: this.rows };
  }
}

function argmax(values: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if ((values[i] as number) > (values[best] as number)) best = i;
  return best;
}

/** Output name of sentence embeddings (models/pooling.ts EMBEDDING_OUTPUT; core cannot import models). */
export const EMBEDDING_OUTPUT_NAME = 'sentence_embedding';

/** Cosine similarity of two vectors; 1 for two zero vectors (the same), 0 when only one is zero, NaN stays NaN. */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>, start = 0, width = a.length): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = start; i < start + width; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 && nb === 0) return 1;
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}

/** Index of the output whose argmax is compared: `logits` when present, else the first. */
function primaryOutput(names: readonly string[]): number {
  const i = names.indexOf('logits');
  return i >= 0 ? i : 0;
}

/**
 * Compares a cell's outputs with the reference engine's on the same rows:
 * the largest absolute difference over every element, and how often the
 * argmax (the predicted class) agrees. Null when nothing comparable exists.
 */
export function compareOutputs(reference: RowOutputs, candidate: RowOutputs, referenceId: string, tolerance: number): CellParity | null {
  const shared = candidate.names.filter((n) => reference.names.includes(n));
  const rows = Math.min(reference.rows.length, candidate.rows.length);
  if (shared.length === 0 || rows === 0) return null;
  let maxAbsDiff = 0;
  let agree = 0;
  const primary = shared[primaryOutput(shared)] as string;
  // Embeddings are judged by the angle between vectors: cosine ≥ 1 − tolerance (0.9999 at the default 1e-4).
  const embedding = shared.includes(EMBEDDING_OUTPUT_NAME);
  let minCosine = 1;
  let sumCosine = 0;
  for (let r = 0; r < rows; r++) {
    for (const name of shared) {
      const a = reference.rows[r]?.[reference.names.indexOf(name)] ?? [];
      const b = candidate.rows[r]?.[candidate.names.indexOf(name)] ?? [];
      if (a.length !== b.length) return { reference: referenceId, maxAbsDiff: Infinity, argmaxAgreement: 0, tolerance, withinTolerance: false, rows };
      for (let i = 0; i < a.length; i++) {
        const d = Math.abs((a[i] as number) - (b[i] as number));
        if (d > maxAbsDiff || Number.isNaN(d)) maxAbsDiff = Number.isNaN(d) ? Infinity : d;
      }
    }
    const pa = reference.rows[r]?.[reference.names.indexOf(primary)] ?? [];
    const pb = candidate.rows[r]?.[candidate.names.indexOf(primary)] ?? [];
    if (argmax(pa) === argmax(pb)) agree++;
    if (embedding) {
      const ea = reference.rows[r]?.[reference.names.indexOf(EMBEDDING_OUTPUT_NAME)] ?? [];
      const eb = candidate.rows[r]?.[candidate.names.indexOf(EMBEDDING_OUTPUT_NAME)] ?? [];
      const c = cosineSimilarity(ea, eb);
      const cos = Number.isNaN(c) ? -Infinity : c;
      if (cos < minCosine) minCosine = cos;
      sumCosine += cos;
    }
  }
  if (embedding) {
    const cosine = { min: minCosine, mean: sumCosine / rows };
    return { reference: referenceId, maxAbsDiff, argmaxAgreement: agree / rows, tolerance, withinTolerance: minCosine >= 1 - tolerance, rows, cosine };
  }
  return { reference: referenceId, maxAbsDiff, argmaxAgreement: agree / rows, tolerance, withinTolerance: maxAbsDiff <= tolerance, rows };
}

/** A label as a class index: a number, or a string of digits; null when it names no class index. */
function classIndex(label: unknown): number | null {
  return typeof label === 'number' ? label : typeof label === 'string' && /^\d+$/.test(label) ? Number(label) : null;
}

/** What an accuracy count saw: rows with outputs, rows with a usable label, and how many of those the argmax got right. */
export interface AccuracyCount {
  readonly seen: number;
  readonly counted: number;
  readonly correct: number;
}

/**
 * Counts, over every row given, how often the predicted class (argmax of
 * the primary output: `logits`, else the first output with a batch axis)
 * equals the row's label. It keeps three counters, not the outputs, so it
 * can run over every row of a pass whatever the parity row cap.
 */
export class AccuracyTally {
  private seen = 0;
  private counted = 0;
  private correct = 0;

  add(outputs: TensorMap, labels: readonly unknown[]): void {
    const batchRows = labels.length;
    const names = Object.keys(outputs)
      .filter((n) => outputs[n]?.dims[0] === batchRows && outputs[n]?.dtype !== 'bool')
      .sort();
    const primaryName = names.length > 0 ? (names[primaryOutput(names)] as string) : undefined;
    const primary = primaryName === undefined ? undefined : outputs[primaryName];
    this.seen += batchRows;
    // An embedding has no predicted class: nothing to count against labels.
    if (!primary || primary.data.length === 0 || primaryName === EMBEDDING_OUTPUT_NAME) return;
    const width = primary.data.length / batchRows;
    for (let r = 0; r < batchRows; r++) {
      const label = classIndex(labels[r]);
      if (label === null) continue;
      let best = 0;
      for (let i = 1; i < width; i++) if (Number(primary.data[r * width + i]) > Number(primary.data[r * width + best])) best = i;
      this.counted++;
      if (best === label) this.correct++;
    }
  }

  count(): AccuracyCount {
    return { seen: this.seen, counted: this.counted, correct: this.correct };
  }
}
