/**
 * The kernel's parent-death signal for processes inferbench starts. A child
 * that watches its parent itself (a pipe, an event) only notices while its
 * event loop runs; a training step or a long batch holds it for seconds.
 * util-linux's `setpriv --pdeathsig KILL -- PROGRAM` sets prctl
 * PR_SET_PDEATHSIG and execs PROGRAM in place, so the kernel kills it the
 * moment its parent dies, whatever it is doing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

let prefix: readonly string[] | null | undefined;

/**
 * `[setpriv, '--pdeathsig', 'KILL', '--']` to put before a program, or null
 * where there is no setpriv that does it (not Linux, util-linux older than
 * 2.33): checked once by running Node (`--version`) through it.
 */
export function parentDeathPrefix(): readonly string[] | null {
  if (prefix !== undefined) return prefix;
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => process.platform === 'linux' && existsSync(p));
  const candidate = setpriv ? [setpriv, '--pdeathsig', 'KILL', '--'] : null;
  // `node --version` answers before Node boots (a few ms, where `node -e ''` costs a whole start, about 0.1 s of CPU at every run).
  prefix = candidate && spawnSync(candidate[0] as string, [...candidate.slice(1), process.execPath, '--version'], { stdio: 'ignore', timeout: 10_000 }).status === 0 ? candidate : null;
  return prefix;
}
