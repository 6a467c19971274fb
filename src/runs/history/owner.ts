import { randomUUID } from 'node:crypto';
import { processAlive } from '../../core/process-alive.js';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Identifies this process among every process that ever wrote the store.
 * A pid alone is not enough: in a container the dashboard is often pid 1
 * after every restart, and pids are reused, so an entry left `running` by a
 * dead process could look alive (or even look like ours) forever.
 */
export const OWNER_TOKEN = randomUUID();

/** When a process started, from /proc (Linux); null where that is not readable. */
export function processStartId(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ")"; starttime is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/** The owner columns of a row this process writes. */
export function ownerColumns(): { pid: number; host: string; token: string; start: string | null } {
  return { pid: process.pid, host: hostname(), token: OWNER_TOKEN, start: processStartId(process.pid) };
}

/**
 * True when the process that owned a queued or running entry on this host
 * is gone: not this process, and its pid is free or now belongs to a
 * process that started at another time.
 */
export function ownerIsDead(owner: { pid: number; token: string | null; start: string | null }): boolean {
  if (owner.token === OWNER_TOKEN) return false;
  if (!processAlive(owner.pid)) return true;
  const now = processStartId(owner.pid);
  return owner.start !== null && now !== null && now !== owner.start;
}
