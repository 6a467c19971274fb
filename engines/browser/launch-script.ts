/**
 * A browser's watchdog launch script, kept in the inferbench cache: the
 * launcher libraries (playwright-core, puppeteer-core) spawn the executable
 * they are given, so the parent-death wrapper has to be a file. Named by a
 * hash of its text, so each distinct script is written once, and written
 * under a temporary name and renamed, so a launch never runs half a script.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheFolder, defaultCacheRoot } from '../../src/core/cache-root.js';

/** The path of an executable holding `script`, `<name>-<hash>.sh` in the cache's bin folder. */
export async function cachedLaunchScript(name: string, script: string): Promise<string> {
  const dir = await cacheFolder(defaultCacheRoot(), 'bin');
  const file = join(dir, `${name}-${createHash('sha256').update(script).digest('hex').slice(0, 12)}.sh`);
  if (!existsSync(file)) {
    const temp = `${file}.${process.pid}`;
    await writeFile(temp, script, { mode: 0o755 });
    await rename(temp, file);
  }
  return file;
}
