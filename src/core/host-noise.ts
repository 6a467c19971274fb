/**
 * Signs of a noisy host, read from the OS around each measured round: how
 * much CPU time processes other than inferbench's own took, and the share of
 * CPU time the hypervisor stole. They do not change a figure; they explain
 * one that rounds disagree on.
 *
 * Why not the load average: an engine measured at 2 threads on a 2-core
 * machine makes a 1-minute load of 2 by itself, so "load per core above 1"
 * fired on a quiet machine and blamed the host for the benchmark's own work.
 * Instead the busy CPU time of the whole machine (/proc/stat) between two
 * readings is taken net of the CPU time of inferbench's own processes
 * (/proc/PID/stat utime + stime of every process in inferbench's process
 * group and their descendants: the CLI, its isolated children, a browser it
 * launched), plus cutime + cstime, the time of their children that already
 * exited. What is left is other work. Parsing and arithmetic are pure so
 * they can be tested with fixed text.
 *
 * Why the exited children: each tfjs-node round's isolated child imports
 * libtensorflow in a probe child (native-probe-child.ts) during its open,
 * ~1.7 s of CPU that is gone from /proc when the round's reading is taken.
 * Counted by utime + stime alone, those ticks were "other processes" and
 * every tfjs-node round on a quiet machine got a host-busy note (34%). The
 * kernel adds a child's ticks to its parent's cutime + cstime when the
 * parent reaps it, which Node does at once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import type { HostNoise } from './results.js';

/** Records written before `otherCpuShare` existed are judged by this 1-minute load per core, as they were then. */
export const HIGH_LOAD_PER_CORE = 1;
/** Above this share of the machine's CPU time used by processes outside inferbench, other work competed for the cores. */
export const HIGH_OTHER_CPU_SHARE = 0.25;
/** Above this share of stolen CPU time, the hypervisor gave our cores to other guests. */
export const HIGH_STEAL_SHARE = 0.05;

/** Cumulative CPU time counters (clock ticks, USER_HZ, the unit of /proc/stat and /proc/PID/stat alike). */
export interface CpuTimes {
  /** Every field of the `cpu` line of /proc/stat summed: wall time × cores. */
  readonly total: number;
  readonly steal: number;
  /** Non-idle time of every process on the machine: total − idle − iowait − steal. */
  readonly busy: number;
  /** utime + stime of inferbench's own processes (see `ownProcessTicks`); null where /proc/PID/stat cannot be read. */
  readonly own: number | null;
}

/**
 * Parses the aggregate `cpu` line of /proc/stat: user nice system idle
 * iowait irq softirq steal [guest guest_nice]. Guest time is already inside
 * user and nice, so it is not added again. Null when the line is missing.
 */
export function parseProcStatCpu(text: string): Omit<CpuTimes, 'own'> | null {
  const line = text.split('\n').find((l) => /^cpu\s/.test(l));
  if (!line) return null;
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  if (fields.length < 4 || fields.some((f) => !Number.isFinite(f))) return null;
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  const steal = fields[7] ?? 0;
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { total, steal, busy: total - idle - steal };
}

/** The fields of /proc/PID/stat this module uses. */
export interface ProcessTicks {
  readonly pid: number;
  readonly ppid: number;
  readonly pgrp: number;
  /**
   * utime + stime + cutime + cstime, in clock ticks: the process's own CPU
   * time and that of its children that exited and were reaped (the module
   * comment says why). A child still alive is not in cutime yet, so nothing
   * is counted twice.
   */
  readonly ticks: number;
}

/** Parses /proc/PID/stat; the command name (field 2) may hold spaces and parentheses, so fields are counted after its last `)`. */
export function parseProcessStat(text: string): ProcessTicks | null {
  const pid = Number(text.slice(0, text.indexOf('(')).trim());
  const f = fieldsAfterName(text);
  if (f === null || !Number.isInteger(pid)) return null;
  const [ppid, pgrp, ...times] = [f[1], f[2], f[11], f[12], f[13], f[14]].map(Number);
  if (![ppid, pgrp, ...times].every((n) => Number.isFinite(n))) return null;
  return { pid, ppid: ppid as number, pgrp: pgrp as number, ticks: times.reduce((a, b) => a + b, 0) };
}

/**
 * The fields of a /proc/<pid>/stat line after the process name, which may
 * hold spaces and parentheses: index 0 is state (field 3 of stat(5)), then
 * ppid(4) pgrp(5) session(6) tty(7) tpgid(8) flags(9) minflt(10)
 * cminflt(11) majflt(12) cmajflt(13) utime(14) stime(15) cutime(16) cstime(17).
 */
function fieldsAfterName(text: string): string[] | null {
  const close = text.lastIndexOf(')');
  return close < 0 ? null : text.slice(close + 1).trim().split(/\s+/);
}

/** USER_HZ, the unit of /proc/PID/stat's times: 100 on every Linux Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * cutime + cstime of this process, in seconds: the CPU time of every child
 * it has reaped, with the children those reaped. Null off Linux. A bench or
 * the test runner reads it before and after a child to know the CPU of the
 * child's whole tree.
 */
export function reapedChildSeconds(): number | null {
  try {
    const f = fieldsAfterName(readFileSync('/proc/self/stat', 'utf8'));
    const ticks = f && Number(f[13]) + Number(f[14]);
    return ticks !== null && Number.isFinite(ticks) ? ticks / CLOCK_TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}

/**
 * CPU ticks of inferbench's own processes: every process in `pgrp` (the
 * process group a CLI run and its forked children share) and every
 * descendant of one (a browser launched in a group of its own).
 */
export function ownProcessTicks(processes: readonly ProcessTicks[], pgrp: number): number {
  const own = new Set(processes.filter((p) => p.pgrp === pgrp).map((p) => p.pid));
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of processes) if (!own.has(p.pid) && own.has(p.ppid)) (own.add(p.pid), (grew = true));
  }
  return processes.reduce((sum, p) => sum + (own.has(p.pid) ? p.ticks : 0), 0);
}

/** Stolen share of CPU time between two readings (0..1); null when no time passed or a reading is missing. */
export function stealShareBetween(before: Pick<CpuTimes, 'total' | 'steal'> | null, after: Pick<CpuTimes, 'total' | 'steal'> | null): number | null {
  if (!before || !after) return null;
  const total = after.total - before.total;
  if (!(total > 0)) return null;
  return Math.max(0, Math.min(1, (after.steal - before.steal) / total));
}

/**
 * Share of the machine's CPU time (all cores) between two readings that
 * went to processes outside inferbench: (busy − own) ÷ total, within 0..1.
 * Null when no time passed or either reading lacks a counter. A process of
 * ours that exited between the readings stays ours through its parent's
 * cutime + cstime; one whose parent left the tree first (reparented to
 * init) counts as other work: it errs towards a note, never away from one.
 */
export function otherCpuShareBetween(before: CpuTimes | null, after: CpuTimes | null): number | null {
  if (!before || !after || before.own === null || after.own === null) return null;
  const total = after.total - before.total;
  if (!(total > 0)) return null;
  const other = after.busy - before.busy - (after.own - before.own);
  return Math.max(0, Math.min(1, other / total));
}

function readOwnTicks(): number | null {
  try {
    const processes: ProcessTicks[] = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const p = parseProcessStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
        if (p) processes.push(p);
      } catch {
        // The process ended between the listing and the read.
      }
    }
    const self = processes.find((p) => p.pid === process.pid);
    return self ? ownProcessTicks(processes, self.pgrp) : null;
  } catch {
    return null;
  }
}

function readCpuTimes(): CpuTimes | null {
  let stat: Omit<CpuTimes, 'own'> | null;
  try {
    stat = parseProcStatCpu(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return null; // Not Linux: steal and other work are unknown, not zero.
  }
  return stat ? { ...stat, own: readOwnTicks() } : null;
}

/**
 * Reads host noise now. `since` is the previous reading's CPU counters, so
 * the steal and other-work shares cover exactly the span between two
 * readings (the round itself for an "after" reading). Returns the counters
 * for the next call.
 */
export function readHostNoise(since: CpuTimes | null): { readonly noise: HostNoise; readonly cpu: CpuTimes | null } {
  const cpu = readCpuTimes();
  const [load1] = loadavg();
  return {
    noise: { loadPerCore: (load1 ?? 0) / availableParallelism(), stealShare: stealShareBetween(since, cpu), otherCpuShare: otherCpuShareBetween(since, cpu), cores: availableParallelism() },
    cpu,
  };
}

/**
 * Whether a reading shows other work competing, and how to say it. Readings
 * with `otherCpuShare` are judged by it (null: unknown, no judgement);
 * records from before it existed by the load per core they recorded.
 */
export function hostBusy(noise: HostNoise): { readonly busy: boolean; readonly text: string; readonly short: string } {
  if (noise.otherCpuShare !== undefined) {
    const share = noise.otherCpuShare;
    if (share === null) return { busy: false, text: 'other work unknown', short: '' };
    const cores = noise.cores !== undefined ? ` (${(share * noise.cores).toFixed(1)} of ${noise.cores} cores)` : '';
    return {
      busy: share > HIGH_OTHER_CPU_SHARE,
      text: `other processes used ${(share * 100).toFixed(0)}% of CPU time${cores}, net of inferbench's own (above ${(HIGH_OTHER_CPU_SHARE * 100).toFixed(0)}%)`,
      short: `others ${(share * 100).toFixed(0)}% CPU`,
    };
  }
  return {
    busy: noise.loadPerCore > HIGH_LOAD_PER_CORE,
    text: `load ${noise.loadPerCore.toFixed(2)} per core (above ${HIGH_LOAD_PER_CORE}; an older record, inferbench's own load included)`,
    short: `load ${noise.loadPerCore.toFixed(1)}/core`,
  };
}

/** The busier of a round's two readings, by the rule of `hostBusy`. */
export function busierReading(before: HostNoise, after: HostNoise): HostNoise {
  const score = (n: HostNoise): number => (n.otherCpuShare !== undefined ? (n.otherCpuShare ?? -1) / HIGH_OTHER_CPU_SHARE : n.loadPerCore / HIGH_LOAD_PER_CORE);
  return score(after) >= score(before) ? after : before;
}

/** Warnings for the rounds whose host readings were high, naming the round and the figure. */
export function hostNoiseWarnings(rounds: readonly { readonly index: number; readonly noise?: { readonly before: HostNoise; readonly after: HostNoise } }[]): string[] {
  const out: string[] = [];
  for (const r of rounds) {
    if (!r.noise) continue;
    const busy = hostBusy(busierReading(r.noise.before, r.noise.after));
    if (busy.busy) out.push(`host busy in round ${r.index + 1}: ${busy.text}`);
    const steal = r.noise.after.stealShare;
    if (steal !== null && steal > HIGH_STEAL_SHARE) {
      out.push(`CPU steal ${(steal * 100).toFixed(1)}% during round ${r.index + 1} (above ${(HIGH_STEAL_SHARE * 100).toFixed(0)}%)`);
    }
  }
  return out;
}
