import { rm, stat } from 'node:fs/promises';
import { basename, isAbsolute, relative, resolve } from 'node:path';
import { describeError, UserError } from '../../core/errors.js';
import type { HistoryEntry } from './history-entry.js';
import type { HistoryStore } from './history-store.js';
import { OWNER_TOKEN } from './owner.js';

/** What `removeEntry` did. */
export interface Removal {
  readonly entry: HistoryEntry;
  /** The run folder deleted, if there was one. */
  readonly deletedDir: string | null;
  readonly warnings: readonly string[];
}

/**
 * Only a run folder inside the store's output folder and named after its
 * run id is deleted, so a store edited by hand (or moved) can never make
 * `rm` delete anything else.
 */
function deletableDir(store: HistoryStore, entry: HistoryEntry): string | null {
  if (entry.dir === null || entry.runId === null) return null;
  const dir = resolve(entry.dir);
  const rel = relative(resolve(store.out), dir);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || basename(dir) !== entry.runId) return null;
  return dir;
}

/**
 * Removes an entry from the store, then its run folder. A run still
 * measuring in another process (or this one) is refused: stop it first.
 * The store goes first, so a folder that cannot be deleted leaves a warning
 * rather than an entry pointing at half-deleted files.
 */
export async function removeEntry(store: HistoryStore, id: number): Promise<Removal> {
  const entry = await store.require(id);
  if (entry.state === 'running' || (entry.state === 'queued' && entry.ownerToken !== OWNER_TOKEN)) {
    throw new UserError(`benchmark ${id} is ${entry.state} (process ${entry.ownerPid})`, 'stop it first (Ctrl-C in its terminal, or Cancel in the dashboard), then remove it');
  }
  await store.remove(id);
  const warnings: string[] = [];
  const dir = deletableDir(store, entry);
  if (entry.dir !== null && dir === null) warnings.push(`kept ${entry.dir}: it is not a run folder inside ${store.out}`);
  let deletedDir: string | null = null;
  if (dir !== null) {
    try {
      if ((await stat(dir).catch(() => null)) !== null) {
        await rm(dir, { recursive: true, force: true });
        deletedDir = dir;
      }
    } catch (err) {
      warnings.push(`could not delete ${dir}: ${describeError(err)}`);
    }
  }
  return { entry, deletedDir, warnings };
}
