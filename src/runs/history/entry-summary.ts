import { formatRate } from '../../core/units.js';
import type { HistoryEntry } from './history-entry.js';

/** The best completed cell as one phrase: `onnx-cpu 1.23k items/s at batch 32, 2 threads`. */
export function headlineText(entry: HistoryEntry): string {
  const h = entry.headline;
  if (!h) return entry.state === 'completed' || entry.state === 'interrupted' ? 'no completed cell' : '';
  const threads = h.requestedThreads === null ? '' : `, ${h.requestedThreads} thread${h.requestedThreads === 1 ? '' : 's'}`;
  return `${h.engine} ${formatRate(h.samplesPerSecond, ' items/s')} at batch ${h.batchSize}${threads}`;
}

/** Cells done out of the sweep size: `3/8`, or `3` while the size is unknown. */
export function progressText(entry: HistoryEntry): string {
  if (entry.cellsTotal === null) return entry.cellsDone > 0 ? String(entry.cellsDone) : '';
  return `${entry.cellsDone}/${entry.cellsTotal}`;
}
