/**
 * Content addressing of the files a run sends to its workers without a
 * shared disk: a manifest lists each file by sha256, the coordinator serves
 * exactly those files (src/launchers/queue/file-server.ts) and a worker keeps a copy only once
 * every byte matches (src/launchers/queue/file-fetch.ts). The same hashes check that workers
 * regenerate the generated models byte for byte and stream the same rows;
 * both the coordinator and a scenario's queue runner use them, so they sit
 * in the core.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { sha256OfFile } from './regular-file.js';
import { readdir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import type { FileManifest } from './queue-jobs.js';

/** sha256 of one regular file, streamed (anything else, a FIFO say, is refused before reading). */
export const hashFile = sha256OfFile;

async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

/** Manifest of a folder (every file under it) or of one file; `absolute` maps each sha256 back to its path. */
export async function buildManifest(path: string, server: string): Promise<{ manifest: FileManifest; absolute: Map<string, string> }> {
  const info = await stat(path);
  const paths = info.isDirectory() ? await listFiles(path) : [path];
  const absolute = new Map<string, string>();
  const files = [];
  for (const p of paths) {
    const sha256 = await hashFile(p);
    absolute.set(sha256, p);
    files.push({ path: info.isDirectory() ? relative(path, p).split(sep).join('/') : basename(p), sha256, size: (await stat(p)).size });
  }
  return { manifest: { hash: listHash(files), name: basename(path), files, server }, absolute };
}

/** sha256 over sorted `path:sha256` lines. */
export function listHash(files: readonly { readonly path: string; readonly sha256: string }[]): string {
  const lines = files.map((f) => `${f.path}:${f.sha256}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** Files that define a model as engines see it: the graph opened, its config and tokenizer. */
export async function hashModelFolder(dir: string, onnxFile: string): Promise<string> {
  const files = [];
  for (const path of ['config.json', 'tokenizer.json', onnxFile]) {
    const full = join(dir, path);
    if (existsSync(full)) files.push({ path, sha256: await hashFile(full) });
  }
  return listHash(files);
}

/** sha256 of the rows in order (each as JSON): two workers with equal hashes stream the same rows. */
export async function hashRows(rows: AsyncIterable<unknown>): Promise<string> {
  const hash = createHash('sha256');
  for await (const row of rows) hash.update(`${JSON.stringify(row)}\n`);
  return hash.digest('hex');
}
