/**
 * The one mapping from file-system error codes to words and to a user's
 * error. A path the user named (`--out`, `--model`, a dataset) that cannot
 * be read or written is the user's to fix, never an "internal error" with a
 * stack: every command turns such an error into `cannot write <path>:
 * permission denied (choose another --out)` through fileSystemError, and the
 * CLI's last resort (main.ts) does the same for any it missed.
 */
import { UserError, hasErrorCode } from './errors.js';

/** errno codes a user can act on, in words. */
const REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on device',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a part of the path is a file, not a folder (or a link to nowhere)',
  EISDIR: 'it is a folder, not a file',
  EEXIST: 'something of that name is already there',
  ENOTEMPTY: 'a folder of that name is already there and not empty',
  ELOOP: 'it is a loop of symbolic links',
  ENAMETOOLONG: 'the path is too long',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open',
  EXDEV: 'it is on another file system',
  EIO: 'the disk reported an I/O error',
  ENOENT: 'it does not exist',
  EBUSY: 'it is in use',
  ETXTBSY: 'it is in use',
};

/** The errno code of a Node system error, or null. */
export function errnoCode(err: unknown): string | null {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : null;
}

/** True when `err` is a file-system error this module has words for. */
export function isFileSystemError(err: unknown): boolean {
  const code = errnoCode(err);
  return code !== null && code in REASONS;
}

/** A file-system error in words (permission, read-only, full disk…); any other error's first line. */
export function fileSystemReason(err: unknown): string {
  const code = errnoCode(err);
  if (code !== null && code in REASONS) return REASONS[code] as string;
  return err instanceof Error ? err.message.split('\n')[0] ?? String(err) : String(err);
}

/** The fix for a file-system error on a path given by `flag`. */
function fixFor(code: string | null, flag: string | null): string {
  const choose = flag ? `choose another ${flag}` : 'choose another path';
  if (code === 'ENOSPC' || code === 'EDQUOT') return `free some space, or ${choose} on another disk; files written before this point are intact`;
  if (code === 'ENOENT') return flag ? `check the path given to ${flag}` : 'check the path';
  return `${choose}, or fix the path's permissions`;
}

/**
 * `cannot <verb> <path>: <reason> (choose another <flag>)` as a UserError
 * (rc 2) when `err` is a file-system error; any other error unchanged.
 * `path` defaults to the path Node put on the error.
 */
/**
 * A full disk (ENOSPC, EDQUOT) as the user's error: a run that meets it
 * stops there, keeps every cell measured (`interrupted (disk full)`), and
 * exits 2, the same in results.json, results.csv and the history.
 */
export class DiskFull extends UserError {}

/** True for ENOSPC / EDQUOT, raw or already worded as DiskFull. */
export function isDiskFull(err: unknown): boolean {
  if (err instanceof DiskFull) return true;
  const code = errnoCode(err);
  return code === 'ENOSPC' || code === 'EDQUOT';
}

export function fileSystemError(err: unknown, verb: FsVerb, path?: string, flag: string | null = null): unknown {
  // folders.ts's FolderRefused (a level of the path could not be made) already says which folder and why.
  if (err instanceof Error && err.name === 'FolderRefused') {
    const refused = err as Error & { dir: string; reason: string };
    return new UserError(`cannot create ${refused.dir}: ${refused.reason}`, fixFor(null, flag));
  }
  if (err instanceof UserError || !isFileSystemError(err)) return err;
  const code = errnoCode(err);
  const where = path ?? (err as { path?: string }).path ?? (err as { dest?: string }).dest ?? 'a file';
  const Kind = code === 'ENOSPC' || code === 'EDQUOT' ? DiskFull : UserError;
  return new Kind(`cannot ${verb} ${where}: ${fileSystemReason(err)}`, fixFor(code, flag));
}

export { hasErrorCode };

export type FsVerb = 'read' | 'write' | 'create' | 'use';

/** The verb of a Node system error's `syscall`, for an error no command mapped itself (main.ts). */
export function syscallVerb(err: unknown): FsVerb {
  const call = typeof err === 'object' && err !== null ? (err as { syscall?: unknown }).syscall : undefined;
  if (call === 'mkdir') return 'create';
  if (call === 'read' || call === 'scandir' || call === 'stat' || call === 'lstat' || call === 'readlink' || call === 'access') return 'read';
  if (call === 'write' || call === 'rename' || call === 'unlink' || call === 'rmdir' || call === 'copyfile' || call === 'symlink') return 'write';
  return 'use';
}
