/**
 * The worker side of content addressing: fetch a manifest's files from the
 * coordinator's server into `<cache>/queue-files/<manifest hash>/<name>`.
 * The manifest comes from a queued job, so nothing in it is trusted: every
 * path it names is resolved by `pathInCache` (normalised, links resolved,
 * refused unless inside the worker's cache); each file is downloaded into a
 * temporary folder inside the cache under a name of our own, checked
 * against its declared size and sha256, and only once every file matches
 * are they moved into place. A copy already complete is reused, so a model
 * crosses the network once per worker.
 */
import { createHash, randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { cacheFolder, pathInCache } from '../../core/cache-root.js';
import { makeFolders } from '../../core/folders.js';
import { hashFile } from '../../core/file-manifest.js';
import type { FileManifest } from '../../core/queue-jobs.js';

/** A download that sends nothing for this long is abandoned (the job is refused). */
const STALL_MS = 60_000;

/** Where each file of the manifest goes, resolved inside the cache; `base` is what the job's model or dataset path is. */
async function targets(manifest: FileManifest, cacheRoot: string, field: string): Promise<{ base: string; files: string[] }> {
  const single = manifest.files.length === 1 && manifest.files[0]?.path === manifest.name;
  const folder = ['queue-files', manifest.hash];
  const base = await pathInCache(cacheRoot, [...folder, manifest.name], `${field}.name`);
  const files: string[] = [];
  for (const [i, file] of manifest.files.entries()) {
    const parts = single ? [...folder, manifest.name] : [...folder, manifest.name, ...file.path.split('/')];
    files.push(await pathInCache(cacheRoot, parts, `${field}.files[${i}].path`));
  }
  return { base, files };
}

/** Whether `path` already holds the file (a regular file with this sha256). */
async function complete(path: string, sha256: string): Promise<boolean> {
  try {
    return (await hashFile(path)) === sha256;
  } catch {
    return false;
  }
}

/** Streams one file into `temp`, refusing it beyond its declared size or with another sha256. */
async function download(url: string, temp: string, expected: { readonly size: number; readonly sha256: string }, what: string): Promise<void> {
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), STALL_MS);
  const handle = await open(temp, 'wx');
  try {
    const res = await fetch(url, { signal: controller.signal, redirect: 'error' });
    if (!res.ok || !res.body) throw new Error(`the coordinator's file server answered ${res.status} for ${what}`);
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(), STALL_MS);
      size += chunk.byteLength;
      if (size > expected.size) throw new Error(`${what} is larger than the ${expected.size} bytes its manifest declares; refused`);
      hash.update(chunk);
      await handle.write(chunk);
    }
    if (size !== expected.size) throw new Error(`${what} has ${size} bytes, its manifest declares ${expected.size}; refused`);
    if (hash.digest('hex') !== expected.sha256) throw new Error(`${what} does not match the sha256 its manifest declares; refused`);
  } catch (err) {
    if (controller.signal.aborted) throw new Error(`${what}: the coordinator's file server sent nothing for ${STALL_MS / 1000} s`);
    throw err;
  } finally {
    clearTimeout(timer);
    await handle.close();
  }
}

/**
 * Returns the local path of the manifest's folder (or single file),
 * fetching what is missing. `field` names the job field it came from
 * (`model.manifest`), so a refusal says which one.
 */
export async function fetchManifest(manifest: FileManifest, cacheRoot: string, field = 'manifest'): Promise<string> {
  const root = await cacheFolder(cacheRoot);
  const { base, files } = await targets(manifest, root, field);
  const wanted: number[] = [];
  for (const [i, file] of manifest.files.entries()) if (!(await complete(files[i] as string, file.sha256))) wanted.push(i);
  if (wanted.length === 0) return base;
  const incoming = join(await cacheFolder(root, 'queue-files'), `.incoming-${process.pid}-${randomBytes(6).toString('hex')}`);
  await makeFolders(incoming);
  try {
    // Every file first lands here under its index, never under a name the job chose.
    for (const i of wanted) {
      const file = manifest.files[i]!;
      await download(`${manifest.server}/files/${file.sha256}`, join(incoming, String(i)), file, `${field}.files[${i}]`);
    }
    for (const i of wanted) {
      const target = files[i] as string;
      await makeFolders(dirname(target));
      await rename(join(incoming, String(i)), target);
    }
  } finally {
    await rm(incoming, { recursive: true, force: true });
  }
  return base;
}
