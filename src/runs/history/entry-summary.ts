import { formatRate } from '../../core/units.js';
import { isLoadConfig, type HistoryEntry } from './history-entry.js';

/**
 * The best completed cell as one phrase with its whole key:
 * `onnx-cpu 1.23k items/s at batch 32, 2 threads`, led by the model row
 * when the run has several (`mini · q8: onnx-cpu … at batch 8, seq 8`), so
 * the figure is never read as another model's, precision's or length's.
 */
export function headlineText(entry: HistoryEntry): string {
  const h = entry.headline;
  if (!h) return entry.state === 'completed' || entry.state === 'interrupted' ? 'no completed cell' : '';
  const threads = h.requestedThreads === null ? null : `${h.requestedThreads} thread${h.requestedThreads === 1 ? '' : 's'}`;
  const model = entry.models.length > 1 && h.model !== '' ? `${h.model}: ` : '';
  const engine = h.host === null ? h.engine : `${h.engine} @ ${h.host}`;
  // A load cell's figure is its peak rate, else its highest rate measured (store-schema.ts cellColumns).
  if (isLoadConfig(entry.config)) {
    const where = [h.batchSize > 1 ? `batches ≤ ${h.batchSize}` : null, threads].filter((p) => p !== null);
    return `${model}${engine} ${formatRate(h.samplesPerSecond, ' req/s')}${where.length > 0 ? `, ${where.join(', ')}` : ''}`;
  }
  const where = [`batch ${h.batchSize}`, threads, h.sequenceLength === null ? null : `seq ${h.sequenceLength}`].filter((p) => p !== null);
  return `${model}${engine} ${formatRate(h.samplesPerSecond, ' items/s')} at ${where.join(', ')}`;
}

/** Cells done out of the sweep size: `3/8`, or `3` while the size is unknown. */
export function progressText(entry: HistoryEntry): string {
  if (entry.cellsTotal === null) return entry.cellsDone > 0 ? String(entry.cellsDone) : '';
  return `${entry.cellsDone}/${entry.cellsTotal}`;
}
