/**
 * inferbench's cache folder: where it is, and how its folders are made.
 * The cache holds generated models, quantized variants and the files a
 * worker fetches for its jobs.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UserError } from './errors.js';
import { FolderRefused, makeFolders } from './folders.js';

/** Environment variable that moves the cache. */
export const CACHE_ENV = 'INFERBENCH_CACHE';

/**
 * Where inferbench keeps generated files: `$INFERBENCH_CACHE`, else
 * `$XDG_CACHE_HOME/inferbench`, else `~/.cache/inferbench`. Read on every
 * call so tests and users can redirect it through the environment.
 */
export function defaultCacheRoot(): string {
  const explicit = process.env[CACHE_ENV];
  if (explicit) return explicit;
  const xdg = process.env['XDG_CACHE_HOME'];
  if (xdg) return join(xdg, 'inferbench');
  return join(homedir(), '.cache', 'inferbench');
}

/**
 * Makes `<root>/<parts…>` (parts are inferbench's own names, never a job's)
 * and answers its path; a cache that cannot hold folders (read-only,
 * `/proc`, a file in the way) is a UserError naming the folder, the cause
 * and INFERBENCH_CACHE.
 */
export async function cacheFolder(root: string, ...parts: readonly string[]): Promise<string> {
  const dir = join(root, ...parts);
  try {
    return await makeFolders(dir);
  } catch (err) {
    if (!(err instanceof FolderRefused)) throw err;
    throw new UserError(
      `cannot use the inferbench cache: ${err.dir} ${err.reason === 'it is a file, not a folder' ? 'is a file, not a folder' : `cannot be created (${err.reason})`}`,
      `set ${CACHE_ENV} to a folder you can write to (now ${resolve(root)})`,
    );
  }
}
