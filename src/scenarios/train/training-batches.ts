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

/**
 * Class index of a label value: an integer (or integer string) as is, else
 * the label's position among the model's labels (id2label), compared
 * case-insensitively.
 */
export function labelIndex(value: unknown, labels: readonly string[], column: string, row: number): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    if (/^\d+$/.test(value.trim())) return Number(value.trim());
    const i = labels.findIndex((l) => l.toLowerCase() === value.trim().toLowerCase());
    if (i >= 0) return i;
  }
  throw new UserError(
    `row ${row} has label ${JSON.stringify(value)} in column "${column}", which is neither a class index nor one of the model's labels (${labels.join(', ') || 'none'})`,
    'pass --label-column naming a column of class indices (0, 1, …) or of the model\'s label names',
  );
}

/** Reads the first `count` rows of the dataset in order, wrapping to the start when it has fewer. */
export async function firstRows(dataset: Dataset, count: number): Promise<DataRow[]> {
  const rows: DataRow[] = [];
  for await (const row of dataset.take(count)) rows.push(row);
  if (rows.length === 0) throw new UserError(`dataset ${dataset.name} has no rows`, 'pass --dataset a file or Hub dataset with labelled rows');
  const base = rows.length;
  for (let i = base; i < count; i++) rows.push(rows[i % base] as DataRow);
  return rows;
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
