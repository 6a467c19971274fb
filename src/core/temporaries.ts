/**
 * Every file or folder inferbench writes is first written under a
 * temporary name beside its destination and renamed into place when whole
 * (run files, exports, packs, charts). This module names those temporaries
 * (`<target>.tmp-<pid>-<hex>`, `<target>.partial-<pid>-<hex>`), remembers
 * the ones this process has open so a stop that quits at once
 * (removeTemporariesSync, called by the stop handler) still leaves no
 * half-written file, and lets the next writer of a destination remove the
 * temporaries of a process that was killed (its pid no longer runs).
 * `replaceFile` is the whole-file write built on them, shared by the run
 * files (reports/write-run.ts) and the engines' own cache files.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { processAlive } from './process-alive.js';

export type TemporaryKind = 'tmp' | 'partial';

const open = new Set<string>();

/** A fresh temporary name beside `target`, naming this process. */
export function temporaryPath(target: string, kind: TemporaryKind): string {
  return `${target}.${kind}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/** Remembers `path` until `done` is called, so removeTemporariesSync can remove it. */
export function trackTemporary(path: string): { done(): void } {
  open.add(path);
  return { done: () => void open.delete(path) };
}

/** How long a stop waits before it removes its temporaries once more (removeTemporariesSync). */
const SETTLE_MS = 25;

function removeEach(paths: readonly string[]): void {
  for (const path of paths) {
    try {
      // Retried while a file lands in a folder being removed (ENOTEMPTY).
      rmSync(path, { recursive: true, force: true, maxRetries: 3, retryDelay: 5 });
    } catch {
      // Best effort on the way out; the next writer sweeps what is left (sweepStaleTemporaries).
    }
  }
}

/**
 * Removes every temporary this process still has open (a stop quitting at
 * once, a fatal error). Never throws. Twice, SETTLE_MS apart: the thread
 * pool still finishes the file operations begun before the stop (a copy
 * into the temporary, a folder made in it), and one landing after the first
 * removal re-created the temporary (a fresh clone's `npm test`,
 * stop-export-no-partial, 2026-11-28). No new one begins meanwhile: the
 * caller runs synchronously and exits.
 */
export function removeTemporariesSync(): void {
  const paths = [...open];
  open.clear();
  if (paths.length === 0) return;
  removeEach(paths);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLE_MS);
  removeEach(paths);
}

const PATTERN = /^(.*)\.(tmp|partial)-(\d+)(?:-[0-9a-f]+)?$/;

/**
 * Removes the temporaries of `target` left by processes that no longer run
 * (killed with SIGKILL, a power cut), and answers the names removed. A
 * folder that cannot be listed or an entry that cannot be removed is left
 * as it is: the write that follows reports its own error.
 */
export async function sweepStaleTemporaries(target: string): Promise<string[]> {
  const dir = dirname(target);
  const name = basename(target);
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    const m = PATTERN.exec(entry);
    if (!m || m[1] !== name) continue;
    const pid = Number(m[3]);
    if (pid === process.pid || processAlive(pid)) continue;
    try {
      await rm(join(dir, entry), { recursive: true, force: true });
      removed.push(entry);
    } catch {
      // Left for a later writer.
    }
  }
  return removed;
}

/** The file operations `replaceFile` needs: node's by default, a test's fake to simulate a full or read-only disk. */
export interface ReplaceFs {
  writeFile(file: string, data: string | Uint8Array): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(file: string): Promise<void>;
}

/**
 * Writes `data` to `target` under a tracked temporary name beside it and
 * renames it into place (the folder must exist): a reader only ever sees a
 * whole file, a stop that quits at once removes the temporary, and what a
 * killed writer left beside `target` is swept first. The error is the file
 * system's; the caller words it for its user.
 */
export async function replaceFile(target: string, data: string | Uint8Array, fs: ReplaceFs = nodeFs): Promise<void> {
  await sweepStaleTemporaries(target);
  const temp = temporaryPath(target, 'tmp');
  const tracked = trackTemporary(temp);
  try {
    await fs.writeFile(temp, data);
    await fs.rename(temp, target);
  } catch (err) {
    await fs.unlink(temp).catch(() => undefined);
    throw err;
  } finally {
    tracked.done();
  }
}
