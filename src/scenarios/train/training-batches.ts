/**
 * The batches a training cell steps through: the dataset's first rows in
 * order, `batchSize` at a time, prepared by the model exactly as `run`
 * prepares them (padded to the longest row, attention mask), with one class
 * index per row from the label column. The same batches are used by every
 * engine and every round, so losses can be compared across them.
 */
import { UserError } from '../../core/errors.js';
import type { TensorMap } from '../../core/tensor.js';
import type { BenchmarkModel } from '../../models/benchmark-model.js';
import type { DataRow, Dataset } from '../../../datasets/dataset.js';
import type { ResolvedColumns } from '../../../datasets/columns.js';

/** One training batch: the model's inputs and the class index of each row. */
export interface TrainingBatch {
  readonly inputs: TensorMap;
  readonly labels: Int32Array;
}

/** Largest class index an engine's int32 label tensor holds: beyond it a label wrapped (4294967297 trained as class 1). */
const MAX_CLASS_INDEX = 2 ** 31 - 1;

/**
 * Class index of a label value: an integer (number, bigint or integer
 * string) as is, else the label's position among the model's labels
 * (id2label), compared case-insensitively. An index outside the model's
 * classes [0, labels.length) — or beyond int32 when the model names none —
 * is a UserError naming the row (from 1, as the dataset reads), the value
 * and the class count, before anything trains.
 */
export function labelIndex(value: unknown, labels: readonly string[], column: string, row: number): number {
  let index: number | null = null;
  if (typeof value === 'number' && Number.isInteger(value)) index = value;
  else if (typeof value === 'bigint') index = Number(value);
  else if (typeof value === 'boolean') index = value ? 1 : 0;
  else if (typeof value === 'string') {
    const text = value.trim();
    if (/^[+-]?\d+$/.test(text)) index = Number(text);
    else {
      const i = labels.findIndex((l) => l.toLowerCase() === text.toLowerCase());
      if (i >= 0) return i;
    }
  }
  const shown = typeof value === 'bigint' ? String(value) : JSON.stringify(value);
  if (index === null) {
    throw new UserError(
      `row ${row + 1} has label ${shown} in column "${column}", which is neither a class index nor one of the model's labels (${labels.join(', ') || 'none'})`,
      'pass --label-column naming a column of class indices (0, 1, …) or of the model\'s label names',
    );
  }
  const classes = labels.length;
  const limit = classes > 0 ? classes - 1 : MAX_CLASS_INDEX;
  if (index < 0 || index > limit) {
    const range = classes > 0 ? `the model's ${classes} classes (0 to ${limit})` : `any class index (0 to ${limit})`;
    throw new UserError(
      `row ${row + 1} has label ${shown} in column "${column}", outside ${range}`,
      classes > 0 ? `give every row a label from 0 to ${limit}, or train a model with more classes (its config.json id2label)` : 'give every row a class index from 0 upwards',
    );
  }
  return index;
}

/**
 * The dataset's first `count` rows in order; a dataset with fewer rows is
 * read again from the start, and `distinct` says how many rows it has (so
 * the run can say they repeat).
 */
export async function firstRows(dataset: Dataset, count: number): Promise<DataRow[] & { readonly distinct: number }> {
  const rows: DataRow[] = [];
  for await (const row of dataset.take(count)) rows.push(row);
  if (rows.length === 0) throw new UserError(`dataset ${dataset.name} has no rows`, 'pass --dataset a file or Hub dataset with labelled rows');
  const distinct = rows.length;
  for (let i = distinct; i < count; i++) rows.push(rows[i % distinct] as DataRow);
  return Object.assign(rows, { distinct });
}

/** Checks the label of every distinct row against the model's classes (see labelIndex), before anything trains. */
export function checkTrainingLabels(rows: readonly DataRow[], distinct: number, labelColumn: string, labels: readonly string[]): void {
  for (let i = 0; i < distinct; i++) labelIndex((rows[i] as DataRow)[labelColumn], labels, labelColumn, i);
}

/** The label column, or the error the CLI promises for a dataset without one. */
export function requireLabelColumn(columns: ResolvedColumns, datasetName: string, available: readonly string[]): string {
  if (columns.label !== null) return columns.label;
  throw new UserError(
    `dataset ${datasetName} has no label column (looked for label, labels, sentiment, target; it has ${available.join(', ')}); training needs a label per row`,
    'pass --label-column naming the column that holds each row\'s class',
  );
}

/** `steps` batches of `batchSize` rows, in order, prepared by `model`. */
export async function trainingBatches(
  model: BenchmarkModel,
  rows: readonly DataRow[],
  columns: ResolvedColumns,
  labels: readonly string[],
  batchSize: number,
  steps: number,
): Promise<TrainingBatch[]> {
  const label = columns.label;
  if (label === null) throw new Error('trainingBatches needs a label column');
  const batches: TrainingBatch[] = [];
  for (let s = 0; s < steps; s++) {
    const chunk = rows.slice(s * batchSize, (s + 1) * batchSize);
    const inputs = await model.prepareBatch(chunk, columns);
    const classes = Int32Array.from(chunk, (r, i) => labelIndex(r[label], labels, label, s * batchSize + i));
    batches.push({ inputs, labels: classes });
  }
  return batches;
}
