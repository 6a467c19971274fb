/**
 * A content hash of the rows a cell streams: their texts in order, and how
 * many there are. Two cells with equal fingerprints saw the same data
 * (dataset, split, row limit, rows skipped for calibration), so `compare`
 * can refuse to set cells that saw other rows against each other.
 */
import { createHash } from 'node:crypto';
import type { RowFingerprint } from '../src/core/results.js';
import type { Dataset } from './dataset.js';

/** Hashes the value of `textColumn` of every row in order (any non-string value as its JSON or string form), each followed by a NUL. */
export async function rowFingerprint(dataset: Dataset, textColumn: string): Promise<RowFingerprint> {
  const hash = createHash('sha256');
  let rows = 0;
  for await (const row of dataset) {
    const value = row[textColumn];
    hash.update(typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : (JSON.stringify(value) ?? 'null'));
    hash.update('\u0000');
    rows++;
  }
  return { rows, sha256: hash.digest('hex') };
}
