import { randomBytes } from 'node:crypto';
import { mkdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { UserError, hasErrorCode } from './errors.js';

function reason(err: unknown): string {
  if (hasErrorCode(err, 'EACCES') || hasErrorCode(err, 'EPERM')) return 'permission denied';
  if (hasErrorCode(err, 'EROFS')) return 'the file system is read-only';
  if (hasErrorCode(err, 'ENOSPC')) return 'the disk is full';
  if (hasErrorCode(err, 'ENOENT')) return 'this file system does not allow creating folders there';
  return err instanceof Error ? err.message.split('\n')[0] ?? String(err) : String(err);
}

/**
 * Makes sure the output folder exists and can be written, before anything
 * else of a run happens, and answers its absolute path. Missing folders
 * are created one level at a time instead of with `mkdir -p`: Node 20's
 * recursive mkdir loops forever at 100% CPU where a file system refuses
 * new folders with ENOENT (`/proc/inferbench`). A probe file is then
 * created and removed, since a folder can exist and still refuse writes.
 * Every failure is a UserError naming the path, the reason and `flag`.
 */
export async function prepareOutputFolder(out: string, flag = '--out'): Promise<string> {
  const target = resolve(out);
  const fail = (message: string): UserError => new UserError(message, `pass ${flag} a folder you can write to (it is created when missing)`);
  const missing: string[] = [];
  for (let dir = target; ; dir = dirname(dir)) {
    try {
      const found = await stat(dir);
      if (!found.isDirectory()) throw fail(`cannot use the output folder ${target}: ${dir} is a file, not a folder`);
      break;
    } catch (err) {
      if (err instanceof UserError) throw err;
      if (!hasErrorCode(err, 'ENOENT') && !hasErrorCode(err, 'ENOTDIR')) throw fail(`cannot use the output folder ${target}: ${reason(err)} (${dir})`);
      missing.unshift(dir);
      if (dirname(dir) === dir) break;
    }
  }
  for (const dir of missing) {
    try {
      await mkdir(dir);
    } catch (err) {
      if (!hasErrorCode(err, 'EEXIST')) throw fail(`cannot create the output folder ${target}: ${reason(err)} (creating ${dir})`);
    }
  }
  const probe = join(target, `.inferbench-write-check-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeFile(probe, '', { flag: 'wx' });
  } catch (err) {
    throw fail(`cannot write in the output folder ${target}: ${reason(err)}`);
  }
  await unlink(probe).catch(() => undefined);
  return target;
}
