import { constants } from 'node:fs';
import { copyFile, readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UserError } from '../../core/errors.js';

/** DuckDB's words for a damaged file, as opposed to a lock, a permission or a full disk. */
export function isCorruptStore(err: unknown): boolean {
  return err instanceof Error && /not a valid DuckDB database file|Corrupt database|does not match stored checksum|Serialization Error|database file .* is truncated/i.test(err.message);
}

/** A backup of `file` already holding exactly these bytes, so opening a broken store twice keeps one copy. */
async function sameBackup(file: string, bytes: Buffer): Promise<string | null> {
  const prefix = `${basename(file)}.corrupt-`;
  for (const name of await readdir(dirname(file))) {
    if (!name.startsWith(prefix) || name.endsWith('.wal')) continue;
    const path = join(dirname(file), name);
    if ((await stat(path)).size === bytes.length && (await readFile(path)).equals(bytes)) return path;
  }
  return null;
}

/**
 * The error for a history store DuckDB cannot read, after keeping a copy
 * of it (and its write-ahead log) as `history.duckdb.corrupt-<timestamp>`,
 * before anyone repairs or replaces it: the old entries may still be
 * recoverable with DuckDB's own tools. The message names the corruption,
 * not the folder's permissions, and says how to start a new history.
 */
export async function corruptStoreError(file: string, err: unknown): Promise<UserError> {
  const why = err instanceof Error ? (err.message.split('\n')[0] ?? err.message) : String(err);
  let backup: string;
  try {
    const bytes = await readFile(file);
    backup = (await sameBackup(file, bytes)) ?? `${file}.corrupt-${new Date().toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-')}`;
    await copyFile(file, backup, constants.COPYFILE_EXCL).catch((e: unknown) => {
      if ((e as { code?: string }).code !== 'EEXIST') throw e;
    });
    await copyFile(`${file}.wal`, `${backup}.wal`, constants.COPYFILE_EXCL).catch(() => undefined);
  } catch (copyErr) {
    return new UserError(
      `the history store ${file} is corrupt (${why}), and no backup could be made: ${copyErr instanceof Error ? copyErr.message : String(copyErr)}`,
      `copy ${file} somewhere safe, then move it away to start a new history; the run folders next to it are intact`,
    );
  }
  return new UserError(
    `the history store ${file} is corrupt: ${why}`,
    `a copy is kept at ${backup}; move ${file} away (or delete it) to start a new history; the run folders next to it are intact`,
  );
}
