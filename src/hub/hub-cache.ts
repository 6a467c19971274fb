import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { finished } from 'node:stream/promises';
import { UserError } from '../core/errors.js';
import { FolderRefused, makeFolders } from '../core/folders.js';
import type { HubEnv } from './hub-env.js';

/** Kinds of Hub repository; the cache folder of each starts with its plural. */
export type RepoType = 'model' | 'dataset' | 'space';

/**
 * The cache folder name huggingface_hub uses for a repository
 * (`datasets--org--name`, `models--bert-base-uncased`), so files inferbench
 * caches sit beside those of Python tools and `huggingface-cli download`.
 */
export function repoFolderName(type: RepoType, id: string): string {
  return [`${type}s`, ...id.split('/')].join('--');
}

/** `$HF_HUB_CACHE/<type>s--<org>--<name>`. */
export function repoCacheDir(env: Pick<HubEnv, 'cacheDir'>, type: RepoType, id: string): string {
  return join(env.cacheDir, repoFolderName(type, id));
}

/**
 * Path of a file in a cached snapshot (`snapshots/<commit>/<path>`), where
 * huggingface_hub links complete downloads. Rejects paths that would climb
 * out of the snapshot, since the path comes from a server.
 */
export function snapshotPath(repoDir: string, commit: string, repoPath: string): string {
  const parts = repoPath.split('/');
  if (!/^[0-9a-f]{6,64}$/iu.test(commit) || parts.some((p) => p === '' || p === '.' || p === '..' || p.includes(sep))) {
    throw new Error(`unsafe Hub cache path: ${commit}/${repoPath}`);
  }
  return join(repoDir, 'snapshots', commit, ...parts);
}

/**
 * The commit a revision (branch, tag, `refs/convert/parquet`) pointed to when
 * it was last resolved online, from `refs/<revision>`; null when not cached.
 * Offline runs use it to find the snapshot to read.
 */
export async function readRef(repoDir: string, revision: string): Promise<string | null> {
  try {
    const commit = (await readFile(join(repoDir, 'refs', ...revision.split('/')), 'utf8')).trim();
    return commit === '' ? null : commit;
  } catch {
    return null;
  }
}

/** Records the commit a revision resolved to, as huggingface_hub does (`refs/<revision>` holding the hash). */
export async function writeRef(repoDir: string, revision: string, commit: string): Promise<void> {
  if ((await readRef(repoDir, revision)) === commit) return;
  await writeFileAtomic(join(repoDir, 'refs', ...revision.split('/')), commit);
}

/**
 * Makes a folder of the Hugging Face cache (never `mkdir -p`, which loops
 * forever where a file system answers ENOENT); a refusal names the folder,
 * the cause and the variables that move the cache.
 */
export async function makeHubFolder(dir: string): Promise<void> {
  try {
    await makeFolders(dir);
  } catch (err) {
    if (!(err instanceof FolderRefused)) throw err;
    throw new UserError(`cannot use the Hugging Face cache: ${err.dir} cannot be created (${err.reason})`, 'set HF_HUB_CACHE (or HF_HOME) to a folder you can write to');
  }
}

/** A temporary name beside `target`, so the final rename stays on one file system. */
function tempPathFor(target: string): string {
  return `${target}.incomplete-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/**
 * Writes a whole file to the cache so that readers only ever see a complete
 * one: the data goes to a temporary file beside it that is renamed into place.
 * A crash or a full disk leaves at most a `*.incomplete-*` file, never a
 * truncated file under the real name.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  await makeHubFolder(dirname(target));
  const temp = tempPathFor(target);
  try {
    await writeFile(temp, data);
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

/**
 * Streams a download into the cache: chunks go to a temporary file, and only
 * when the stream ended and the byte count equals `expectedBytes` (when
 * known) is it renamed to `target`. A connection that drops mid-file
 * therefore never leaves a partial file under the final name; the caller may
 * retry. Returns the number of bytes written.
 */
export async function writeStreamAtomic(target: string, chunks: AsyncIterable<Uint8Array>, expectedBytes?: number): Promise<number> {
  await makeHubFolder(dirname(target));
  const temp = tempPathFor(target);
  const out = createWriteStream(temp);
  // Listened to from the start: a write still in flight when a cut download destroys the stream reports
  // ERR_STREAM_DESTROYED on it later, which without a listener is an uncaught exception that ends the process.
  let failure: Error | null = null;
  out.on('error', (err) => {
    failure ??= err;
  });
  let written = 0;
  try {
    for await (const chunk of chunks) {
      written += chunk.byteLength;
      // A failed stream never drains; it closes.
      if (!out.write(chunk)) await new Promise<void>((resolve) => {
        const go = () => {
          out.off('drain', go).off('close', go);
          resolve();
        };
        out.once('drain', go).once('close', go);
      });
      if (failure) throw failure;
    }
    out.end();
    await finished(out);
    if (expectedBytes !== undefined && written !== expectedBytes) {
      throw new UserError(
        `Download of ${target} stopped after ${written} of ${expectedBytes} bytes`,
        'Run the command again; the partial file was not kept.',
      );
    }
    await rename(temp, target);
    return written;
  } catch (err) {
    // The file may still be opening: wait until it is closed, or the unlink could run before it exists.
    if (!out.closed) await new Promise<void>((resolve) => out.destroy().once('close', () => resolve()));
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

/** Size of a cached file, or null when it is absent (so callers can check a snapshot file is complete). */
export async function cachedFileSize(path: string): Promise<number | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}
