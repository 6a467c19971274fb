import { formatRate } from '../../core/units.js';
import type { HistoryEntry } from './history-entry.js';
import { scenarioOfConfig } from '../../scenarios/scenario-registry.js';
import '../builtin-scenarios.js';

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
  const parts = { subject: `${model}${h.host === null ? h.engine : `${h.engine} @ ${h.host}`}`, samplesPerSecond: h.samplesPerSecond, batchSize: h.batchSize, threads, sequenceLength: h.sequenceLength };
  // A scenario whose figure is no items/s (load: requests/s) phrases it itself (scenario-registry.ts).
  const own = scenarioOfConfig(entry.config).headline;
  if (own !== undefined) return own(parts);
  const where = [`batch ${h.batchSize}`, threads, h.sequenceLength === null ? null : `seq ${h.sequenceLength}`].filter((p) => p !== null);
  return `${parts.subject} ${formatRate(h.samplesPerSecond, ' items/s')} at ${where.join(', ')}`;
}

/** Cells done out of the sweep size: `3/8`, or `3` while the size is unknown. */
export function progressText(entry: HistoryEntry): string {
  if (entry.cellsTotal === null) return entry.cellsDone > 0 ? String(entry.cellsDone) : '';
  return `${entry.cellsDone}/${entry.cellsTotal}`;
}
