import type { HostTensor } from './tensor.js';

/** Correct predictions out of the rows that had a usable label. */
export interface AccuracyCount {
  readonly correct: number;
  /** Rows with a label that names a class; rows without one are left out rather than counted wrong. */
  readonly total: number;
}

/**
 * The class a label names: an index as a number, bigint or numeric string
 * (datasets store ClassLabel as int64; CSV carries text), or a class name
 * looked up in `labelToId` (a model's `label2id`, e.g. "positive" → 1).
 * Null when the label cannot name a class, so it is not scored.
 */
function classOf(label: unknown, labelToId?: Readonly<Record<string, number>>): number | null {
  if (typeof label === 'bigint') return label >= 0n && label <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(label) : null;
  if (typeof label === 'number') return Number.isInteger(label) && label >= 0 ? label : null;
  if (typeof label === 'boolean') return label ? 1 : 0;
  if (typeof label === 'string') {
    const trimmed = label.trim();
    if (/^\d+$/u.test(trimmed)) return Number(trimmed);
    const mapped = labelToId?.[trimmed] ?? labelToId?.[trimmed.toLowerCase()];
    return mapped ?? null;
  }
  return null;
}

/**
 * Scores one batch: the argmax of each row of `logits` (`[batch, classes]`)
 * against the row's dataset label. A single logit per row (`[batch]` or
 * `[batch, 1]`, a sigmoid head) predicts class 1 when positive. Summing the
 * counts over batches gives a cell's accuracy (`correct / total`), computed
 * on the engine's own outputs so a backend that changes predictions shows it.
 */
export function accuracyOf(logits: HostTensor, labels: readonly unknown[], labelToId?: Readonly<Record<string, number>>): AccuracyCount {
  const rows = logits.dims[0] ?? 0;
  if (rows !== labels.length) throw new RangeError(`logits have ${rows} rows but ${labels.length} labels were given`);
  const width = rows === 0 ? 0 : logits.data.length / rows;
  let correct = 0;
  let total = 0;
  for (let r = 0; r < rows; r++) {
    const want = classOf(labels[r], labelToId);
    if (want === null) continue;
    total++;
    let predicted: number;
    if (width === 1) {
      predicted = Number(logits.data[r]) > 0 ? 1 : 0;
    } else {
      predicted = 0;
      let best = -Infinity;
      for (let c = 0; c < width; c++) {
        const value = Number(logits.data[r * width + c]);
        if (value > best) {
          best = value;
          predicted = c;
        }
      }
    }
    if (predicted === want) correct++;
  }
  return { correct, total };
}
