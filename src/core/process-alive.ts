/**
 * Whether a process id still runs, for the stale markers a killed process
 * leaves: a history entry still "running" (runs/history/owner.ts) and a
 * temporary file or folder (temporaries.ts).
 */

/** True while a process with this id runs on this machine (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
