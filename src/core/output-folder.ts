import { randomBytes } from 'node:crypto';
import { unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { UserError } from './errors.js';
import { FolderRefused, fileSystemReason, makeFolders } from './folders.js';

/**
 * Where every command writes and reads runs without --out. Here, beside the
 * folder check, rather than with the run driver: `list`, `show`, `compare` and
 * a refused flag read it without loading the engines and models a run imports.
 */
export const DEFAULT_OUT_DIR = 'inferbench-out';

/**
 * Makes sure the output folder exists and can be written, before anything
 * else of a run happens, and answers its absolute path. Missing folders
 * are created by makeFolders (never `mkdir -p`, which loops forever on
 * `/proc/inferbench`). A probe file is then
 * created and removed, since a folder can exist and still refuse writes.
 * Every failure is a UserError naming the path, the reason and `flag`.
 */
export async function prepareOutputFolder(out: string, flag = '--out'): Promise<string> {
  const target = resolve(out);
  const fail = (message: string): UserError => new UserError(message, `pass ${flag} a folder you can write to (it is created when missing)`);
  try {
    await makeFolders(target);
  } catch (err) {
    if (!(err instanceof FolderRefused)) throw err;
    if (err.reason === 'it is a file, not a folder') throw fail(`cannot use the output folder ${target}: ${err.dir} is a file, not a folder`);
    throw fail(`cannot create the output folder ${target}: ${err.reason} (creating ${err.dir})`);
  }
  const probe = join(target, `.inferbench-write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(probe, '', { flag: 'wx' });
  } catch (err) {
    throw fail(`cannot write in the output folder ${target}: ${fileSystemReason(err)}`);
  }
  await unlink(probe).catch(() => undefined);
  return target;
}
