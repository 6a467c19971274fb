/**
 * The worker side of content addressing: fetch a manifest's files from the
 * coordinator's server into `<cache>/queue-files/<manifest hash>/<name>`,
 * keeping a file only when its sha256 matches. A copy already complete is
 * reused, so a model crosses the network once per worker.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { hashFile } from './file-manifest.js';
import type { FileManifest } from './job-schema.js';

/** Returns the local path of the manifest's folder (or single file), fetching what is missing. */
export async function fetchManifest(manifest: FileManifest, cacheRoot: string): Promise<string> {
  const root = join(cacheRoot, 'queue-files', manifest.hash);
  const single = manifest.files.length === 1 && manifest.files[0]?.path === manifest.name;
  const base = single ? root : join(root, manifest.name);
  for (const file of manifest.files) {
    const target = join(base, file.path);
    if (existsSync(target) && (await hashFile(target)) === file.sha256) continue;
    const res = await fetch(`${manifest.server}/files/${file.sha256}`);
    if (!res.ok) throw new Error(`the coordinator's file server ${manifest.server} answered ${res.status} for ${file.path}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    const got = createHash('sha256').update(bytes).digest('hex');
    if (got !== file.sha256) throw new Error(`${file.path} from ${manifest.server} has sha256 ${got.slice(0, 12)}…, expected ${file.sha256.slice(0, 12)}…; refused`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(`${target}.part`, bytes);
    await rename(`${target}.part`, target);
  }
  return single ? join(root, manifest.name) : base;
}
