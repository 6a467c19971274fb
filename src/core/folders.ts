/**
 * Creating folders without `mkdir -p`: Node 20's recursive mkdir loops
 * forever at 100% CPU where a file system refuses a new folder with ENOENT
 * although its parent exists (`/proc/x`, `/sys/x`). Every folder inferbench
 * creates (output folder, cache, downloads) is made here, one level at a
 * time, and a refusal says which folder and why in words.
 */
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { hasErrorCode } from './errors.js';
import { fileSystemReason as fsReason } from './fs-errors.js';

/** A folder that could not be made: `dir` is the level that failed, `reason` the cause in words. */
export class FolderRefused extends Error {
  override readonly name = 'FolderRefused';
  constructor(readonly dir: string, readonly reason: string) {
    super(`${dir}: ${reason}`);
  }
}

/** A file-system error in words (fs-errors.ts), with ENOENT read as making a folder does: a file system that makes none there. */
export function fileSystemReason(err: unknown): string {
  if (hasErrorCode(err, 'ENOENT')) return 'this file system does not allow creating folders there';
  return fsReason(err);
}

/**
 * Makes `target` and any missing parents, one level at a time. Throws
 * FolderRefused (never loops) when a level is a file or cannot be made.
 */
export async function makeFolders(target: string): Promise<string> {
  const full = resolve(target);
  const missing: string[] = [];
  for (let dir = full; ; dir = dirname(dir)) {
    try {
      const found = await stat(dir);
      if (!found.isDirectory()) throw new FolderRefused(dir, 'it is a file, not a folder');
      break;
    } catch (err) {
      if (err instanceof FolderRefused) throw err;
      if (!hasErrorCode(err, 'ENOENT') && !hasErrorCode(err, 'ENOTDIR')) throw new FolderRefused(dir, fileSystemReason(err));
      missing.unshift(dir);
      if (dirname(dir) === dir) break;
    }
  }
  for (const dir of missing) {
    try {
      await mkdir(dir);
    } catch (err) {
      if (!hasErrorCode(err, 'EEXIST')) throw new FolderRefused(dir, fileSystemReason(err));
    }
  }
  return full;
}
