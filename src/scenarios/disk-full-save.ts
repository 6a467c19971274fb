/**
 * The last save of a run that met a full disk. The run stops there (every
 * further cell would fail to save too), and what it measured must still
 * reach results.json: the files every save rewrites from the record
 * (Parquet, Arrow, charts) are removed first, so the record and its CSV,
 * written first, fit in the space they held. A run folder that ends with
 * no results.json is removed, never left empty.
 */
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isDiskFull } from '../core/fs-errors.js';

/** Files kept while making room: the record, its CSV, and the saved outputs, which the record cannot rebuild. */
const KEEP = /^(results\.json|results\.csv|outputs(-.+)?\.parquet)$/;

/** Saves with `write`; on a full disk, frees the files the save rewrites anyway and tries once more. Never throws. */
export async function saveAfterDiskFull(dir: string, write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
    return;
  } catch (err) {
    if (!isDiskFull(err)) return;
  }
  try {
    for (const name of await readdir(dir)) if (!KEEP.test(name)) await rm(join(dir, name), { recursive: true, force: true });
    await write();
  } catch {
    // The last good files stay as they were: each was written whole, under a temporary name.
  }
  if (!existsSync(join(dir, 'results.json'))) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
}
