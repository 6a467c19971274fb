/**
 * inferbench's cache folder, and the one way anything is placed in it. The
 * cache holds generated models, quantized variants and the files a worker
 * fetches for its jobs. Where a path comes from outside (a queued job names
 * a folder and its files), `pathInCache` is the only way to turn it into a
 * path on disk: it normalises, resolves symbolic links and refuses anything
 * that does not stay inside the cache, naming the job's field, never the
 * path's contents.
 */
import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { UserError } from './errors.js';
import { resolveInside } from './path-inside.js';
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

/** The cache cannot hold folders: not a problem of one cell or model, so it ends the run with its fix. */
export class CacheUnusable extends UserError {}

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
    throw new CacheUnusable(
      `cannot use the inferbench cache: ${err.dir} ${err.reason === 'it is a file, not a folder' ? 'is a file, not a folder' : `cannot be created (${err.reason})`}`,
      `set ${CACHE_ENV} to a folder you can write to (now ${resolve(root)})`,
    );
  }
}

/** A path a job named that does not lead inside the cache. Its message names the field and the rule, never the path. */
export class PathRefused extends UserError {
  constructor(readonly field: string, rule: string) {
    super(`field "${field}" ${rule}; refused, nothing was read or written`);
  }
}

/**
 * The absolute path of `parts` under the cache folder `root` (which must
 * exist), for a path a job names. Each part must be a non-empty string
 * without NUL bytes; the joined path is normalised, and the part of it that
 * exists is resolved through its symbolic links. Anything that lands
 * outside `root` — `..`, an absolute part, a link leading out — is a
 * PathRefused naming `field`. Every write of a job's file goes to a path
 * this answered.
 */
export async function pathInCache(root: string, parts: readonly string[], field: string): Promise<string> {
  for (const part of parts) {
    if (typeof part !== 'string' || part === '') throw new PathRefused(field, 'has an empty path segment');
    if (part.includes('\0')) throw new PathRefused(field, 'holds a NUL byte');
    if (isAbsolute(part)) throw new PathRefused(field, 'is an absolute path, not one inside the worker\'s cache');
  }
  const realRoot = await realpath(root);
  // The rule the dashboard's PathGuard applies to --root and --allow too (path-inside.ts).
  const outcome = resolveInside([realRoot], resolve(realRoot, ...parts));
  if (outcome.ok) return outcome.path;
  const rule = {
    climbs: 'climbs out of the worker\'s cache (..)',
    'link-out': 'leads through a symbolic link out of the worker\'s cache',
    'broken-link': 'leads through a broken symbolic link',
    unchecked: 'cannot be checked inside the worker\'s cache',
  } as const;
  throw new PathRefused(field, rule[outcome.why]);
}
