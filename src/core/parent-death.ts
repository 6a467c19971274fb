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

let setprivPath: string | null | undefined;

/**
 * `[setpriv, '--pdeathsig', SIGNAL, '--']` to put before a program, or null
 * where there is no setpriv that does it (not Linux, util-linux older than
 * 2.33): checked once by running Node (`--version`) through it. KILL for a
 * child that must die at once; TERM for a watchdog that has work to do first
 * (engines/browser/chromium.ts kills Chromium's whole process group).
 */
export function parentDeathPrefix(signal: 'KILL' | 'TERM' = 'KILL'): readonly string[] | null {
  if (setprivPath === undefined) {
    const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => process.platform === 'linux' && existsSync(p));
    // `node --version` answers before Node boots (a few ms, where `node -e ''` costs a whole start, about 0.1 s of CPU at every run).
    setprivPath = setpriv && spawnSync(setpriv, ['--pdeathsig', 'KILL', '--', process.execPath, '--version'], { stdio: 'ignore', timeout: 10_000 }).status === 0 ? setpriv : null;
  }
  return setprivPath === null ? null : [setprivPath, '--pdeathsig', signal, '--'];
}
