/**
 * Signs of a noisy host, read from the OS around each measured round: the
 * 1-minute load average per core and the share of CPU time the hypervisor
 * stole. They do not change a figure; they explain one that rounds
 * disagree on. Parsing is pure so it can be tested with fixed text.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type { HostNoise } from './results.js';

/** Above this 1-minute load per core, other work competed for the cores. */
export const HIGH_LOAD_PER_CORE = 1;
/** Above this share of stolen CPU time, the hypervisor gave our cores to other guests. */
export const HIGH_STEAL_SHARE = 0.05;

/** Cumulative CPU time counters of the `cpu` line of /proc/stat (in clock ticks). */
export interface CpuTimes {
  readonly total: number;
  readonly steal: number;
}

/**
 * Parses the aggregate `cpu` line of /proc/stat: user nice system idle
 * iowait irq softirq steal [guest guest_nice]. Guest time is already inside
 * user and nice, so it is not added again. Null when the line is missing.
 */
export function parseProcStatCpu(text: string): CpuTimes | null {
  const line = text.split('\n').find((l) => /^cpu\s/.test(l));
  if (!line) return null;
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  if (fields.length < 4 || fields.some((f) => !Number.isFinite(f))) return null;
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return { total, steal: fields[7] ?? 0 };
}

/** Stolen share of CPU time between two readings (0..1); null when no time passed or a reading is missing. */
export function stealShareBetween(before: CpuTimes | null, after: CpuTimes | null): number | null {
  if (!before || !after) return null;
  const total = after.total - before.total;
  if (!(total > 0)) return null;
  return Math.max(0, Math.min(1, (after.steal - before.steal) / total));
}

function readCpuTimes(): CpuTimes | null {
  try {
    return parseProcStatCpu(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null; // Not Linux: steal is unknown, not zero.
  }
}

/**
 * Reads host noise now. `since` is the previous reading's CPU counters, so
 * the steal share covers exactly the span between two readings (the round
 * itself for an "after" reading). Returns the counters for the next call.
 */
export function readHostNoise(since: CpuTimes | null): { readonly noise: HostNoise; readonly cpu: CpuTimes | null } {
  const cpu = readCpuTimes();
  const [load1] = loadavg();
  return { noise: { loadPerCore: (load1 ?? 0) / availableParallelism(), stealShare: stealShareBetween(since, cpu) }, cpu };
}

/** Warnings for the rounds whose host readings were high, naming the round and the figure. */
export function hostNoiseWarnings(rounds: readonly { readonly index: number; readonly noise?: { readonly before: HostNoise; readonly after: HostNoise } }[]): string[] {
  const out: string[] = [];
  for (const r of rounds) {
    if (!r.noise) continue;
    const load = Math.max(r.noise.before.loadPerCore, r.noise.after.loadPerCore);
    if (load > HIGH_LOAD_PER_CORE) out.push(`host busy in round ${r.index + 1}: load ${load.toFixed(2)} per core (above ${HIGH_LOAD_PER_CORE})`);
    const steal = r.noise.after.stealShare;
    if (steal !== null && steal > HIGH_STEAL_SHARE) {
      out.push(`CPU steal ${(steal * 100).toFixed(1)}% during round ${r.index + 1} (above ${(HIGH_STEAL_SHARE * 100).toFixed(0)}%)`);
    }
  }
  return out;
}
