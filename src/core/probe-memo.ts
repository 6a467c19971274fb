/**
 * An on-disk memo of an engine probe's good answer, for probes that cost a
 * process (tfjs-node's child loading libtensorflow, about 1.6 CPU-s) or a
 * browser (the browser GPU engines' Chromium launch, about 4 CPU-s), so a
 * later process skips the probe when nothing that decides the answer changed.
 *
 * The caller builds the key: everything the answer depends on (files by
 * inode, size and mtime, versions, variables). One JSON file per key, named
 * by the key's SHA-256, holds the key itself, so a hash collision or a
 * half-read file is a miss, never a wrong answer.
 *
 * Only the answers `keep` accepts are stored: a failed probe is never
 * remembered, so a user who fixes an install is not shown the old error.
 * Any trouble with the memo (no cache folder, a read-only one, a corrupt
 * file) means probing as before, silently but for NODE_DEBUG=inferbench.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { debuglog } from 'node:util';
import { defaultCacheRoot } from './cache-root.js';
import { makeFolders } from './folders.js';
import { replaceFile } from './temporaries.js';

const debug = debuglog('inferbench');

export interface ProbeMemo<T> {
  /** Folder of the cache that holds this probe's memo files, one per key. */
  readonly folder: string;
  /** Named in debug lines. */
  readonly label: string;
  /** Whether an answer may be remembered (a good one only). */
  readonly keep: (answer: T) => boolean;
  /** The remembered answer read back, or null when the stored value is not one. */
  readonly parse: (value: unknown) => T | null;
}

/**
 * The answer for `key`: the memo's when a file holds exactly this key, else
 * `probe()`'s, stored when `memo.keep` accepts it. A null key (it could not
 * be made) always probes and stores nothing. Never throws for the memo's sake.
 */
export async function rememberedAnswer<T>(memo: ProbeMemo<T>, key: string | null, probe: () => Promise<T>, cacheRoot: string = defaultCacheRoot()): Promise<T> {
  const file = key === null ? null : join(cacheRoot, memo.folder, `${createHash('sha256').update(key).digest('hex')}.json`);
  if (key !== null && file !== null) {
    const remembered = await readMemo(memo, file, key);
    if (remembered !== null) return remembered;
  }
  const answer = await probe();
  if (key !== null && file !== null && memo.keep(answer)) await writeMemo(memo, file, key, answer);
  return answer;
}

/** A file as a key records it (symbolic links followed): a reinstall gives a new inode even where npm fixes mtimes. Null for a non-file. */
export async function fileStamp(path: string): Promise<string | null> {
  const st = await stat(path, { bigint: true });
  if (!st.isFile()) return null;
  return `${path} = ${await realpath(path)} dev=${st.dev} ino=${st.ino} size=${st.size} mtimeNs=${st.mtimeNs}`;
}

/** The names in `dir`, sorted, or none where it cannot be read: what a key lists of a folder (a driver's, a package's). */
export async function folderNames(dir: string): Promise<string[]> {
  return readdir(dir).then((names) => names.sort(), () => []);
}

async function readMemo<T>(memo: ProbeMemo<T>, file: string, key: string): Promise<T | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const stored = JSON.parse(text) as { key?: unknown; answer?: unknown };
    if (stored.key !== key) return null;
    const answer = memo.parse(stored.answer);
    return answer !== null && memo.keep(answer) ? answer : null;
  } catch {
    debug(`${memo.label} memo: ${file} is not a memo; probing`);
    return null;
  }
}

async function writeMemo<T>(memo: ProbeMemo<T>, file: string, key: string, answer: T): Promise<void> {
  try {
    await makeFolders(dirname(file));
    await replaceFile(file, `${JSON.stringify({ key, answer })}\n`);
  } catch (err) {
    debug(`${memo.label} memo: not written to ${file} (${String(err)})`);
  }
}
