/**
 * A cell must never report a batch size it did not run: with fewer rows
 * than the batch size, every batch would hold all the rows and the cell
 * would be a smaller batch under a bigger label. Such cells are skipped
 * with the fix before anything loads.
 */
import type { CellKey, SkippedCell } from '../../core/results.js';

/** The skipped cell for a batch size larger than the rows, or null when the batch size can run. */
export function batchSizeSkip(key: CellKey, rows: number): SkippedCell | null {
  if (key.batchSize <= rows) return null;
  const rowsText = rows === 1 ? 'only 1 row' : `only ${rows} rows`;
  return { ...key, state: 'skipped', reason: `${rowsText}: batch ${key.batchSize} needs at least ${key.batchSize}; lower --batch-sizes or raise --limit` };
}
