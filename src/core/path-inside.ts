/**
 * The one rule for a path that must stay inside given folders: the workers'
 * cache (`pathInCache`, for the paths a queued job names) and the
 * dashboard's `--root` and `--allow` folders (its PathGuard, for every file
 * a model or dataset names) both resolve through `resolveInside`. The path
 * is normalised, then the part of it that exists is resolved through its
 * symbolic links, so neither `../` nor a link at any depth leads out.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { hasErrorCode } from './errors.js';

/** True when `path` is `root` or lies under it (both absolute, normalised). */
export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Where a path leads: inside one of the roots (its resolved path, and whether it exists), or why not. */
export type InsideOutcome =
  | { readonly ok: true; readonly path: string; readonly exists: boolean }
  | { readonly ok: false; readonly why: 'climbs' | 'link-out' | 'broken-link' | 'unchecked' };

/**
 * Resolves the absolute path `wanted` against `realRoots` (real paths, as
 * realpath gives them): `climbs` when it lies outside every root as
 * written, `link-out` when a link on the way leads outside them,
 * `broken-link` when a link leads nowhere, `unchecked` when a part cannot be
 * examined. A path that does not exist yet is fine (a file about to be
 * written); `exists` says which.
 */
export function resolveInside(realRoots: readonly string[], wanted: string): InsideOutcome {
  if (!realRoots.some((root) => isInside(root, wanted))) return { ok: false, why: 'climbs' };
  let existing = wanted;
  const rest: string[] = [];
  for (;;) {
    try {
      lstatSync(existing);
      break;
    } catch (err) {
      if (!hasErrorCode(err, 'ENOENT') && !hasErrorCode(err, 'ENOTDIR')) return { ok: false, why: 'unchecked' };
      if (dirname(existing) === existing) return { ok: false, why: 'unchecked' };
      rest.unshift(basename(existing));
      existing = dirname(existing);
    }
  }
  let real: string;
  try {
    real = realpathSync(existing);
  } catch {
    return { ok: false, why: 'broken-link' };
  }
  const resolved = join(real, ...rest);
  if (!realRoots.some((root) => isInside(root, resolved))) return { ok: false, why: 'link-out' };
  return { ok: true, path: resolved, exists: rest.length === 0 };
}
