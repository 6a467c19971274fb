import { formatRate } from '../../core/units.js';
import { isLoadConfig, type HistoryEntry } from './history-entry.js';

/** The best completed cell as one phrase: `onnx-cpu 1.23k items/s at batch 32, 2 threads`. */
export function headlineText(entry: HistoryEntry): string {
  const h = entry.headline;
  if (!h) return entry.state === 'completed' || entry.state === 'interrupted' ? 'no completed cell' : '';
  const threads = h.requestedThreads === null ? '' : `, ${h.requestedThreads} thread${h.requestedThreads === 1 ? '' : 's'}`;
  // A load cell's figure is its peak rate, else its highest rate measured (store-schema.ts cellColumns).
  if (isLoadConfig(entry.config)) return `${h.engine} ${formatRate(h.samplesPerSecond, ' req/s')}${h.batchSize > 1 ? `, batches ≤ ${h.batchSize}` : ''}${threads}`;
  return `${h.engine} ${formatRate(h.samplesPerSecond, ' items/s')} at batch ${h.batchSize}${threads}`;
}

/** Cells done out of the sweep size: `3/8`, or `3` while the size is unknown. */
export function progressText(entry: HistoryEntry): string {
  if (entry.cellsTotal === null) return entry.cellsDone > 0 ? String(entry.cellsDone) : '';
  return `${entry.cellsDone}/${entry.cellsTotal}`;
}
