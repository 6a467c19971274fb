/**
 * Writing a whole file so that readers only ever see a complete one: the
 * data goes to a temporary file beside the target that is renamed into
 * place. A crash or a full disk leaves at most a `*.incomplete-*` file,
 * never a truncated file under the real name. In core so that the Hub cache
 * and the engines' own cache files (tfjs-node's probe memo) share it.
 */
import { randomBytes } from 'node:crypto';
import { rename, unlink, writeFile } from 'node:fs/promises';

/** A temporary name beside `target`, so the final rename stays on one file system. */
export function incompletePathFor(target: string): string {
  return `${target}.incomplete-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** Writes `data` to `target` through a temporary file and a rename; the folder must exist. The error is the file system's. */
export async function replaceFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  const temp = incompletePathFor(target);
  try {
    await writeFile(temp, data);
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}
