/**
 * Energy and GPU memory as the hardware reports them, and nothing when it
 * does not: every figure is either measured, with its source, scope and
 * window, or `{ unmeasurable: why }` — never a 0 that would read as "free".
 * The readers here are pure or take their file system root, so fixture
 * sysfs trees and recorded nvidia-smi output test them on machines that
 * have neither.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Why the hardware gave no figure. */
export interface Unmeasurable {
  readonly unmeasurable: string;
}

export type Measured<T> = T | Unmeasurable;

export function isUnmeasurable<T extends object>(m: Measured<T> | undefined | null): m is Unmeasurable {
  return typeof m === 'object' && m !== null && 'unmeasurable' in m;
}

/** Energy over one timed loop. */
export interface EnergyFigure {
  readonly joules: number;
  /** joules ÷ rows processed in the window. */
  readonly joulesPerSample: number;
  readonly samples: number;
  /** Length of the window the joules cover: the timed loop (all rounds summed on a cell). */
  readonly windowMs: number;
  /** What was read, e.g. `RAPL package-0` or `nvidia-smi power.draw, GPU 00000000:01:00.0`. */
  readonly source: string;
  /** What the figure includes: whole package or board, idle power and other processes included. */
  readonly scope: string;
}

/** Peak GPU memory of this process over the timed loop. */
export interface GpuMemoryFigure {
  readonly peakBytes: number;
  readonly windowMs: number;
  /** nvidia-smi readings that listed this process. */
  readonly readings: number;
  readonly source: string;
}

const MIB = 1024 * 1024;

/** One RAPL domain's counter. */
export interface RaplCounter {
  readonly zone: string;
  readonly name: string;
  readonly energyUj: number;
  readonly maxEnergyRangeUj: number;
}

/**
 * The package-level RAPL counters under `root` (`/sys/class/powercap`):
 * `intel-rapl:N` zones only, not their `intel-rapl:N:M` subzones (core,
 * uncore, dram), whose energy the package already counts.
 */
export function readRapl(root = '/sys/class/powercap'): Measured<readonly RaplCounter[]> {
  let zones: string[];
  try {
    zones = readdirSync(root).filter((z) => /^intel-rapl:\d+$/.test(z));
  } catch {
    return { unmeasurable: `no RAPL: ${root} does not exist (no powercap driver, or a VM that hides it)` };
  }
  if (zones.length === 0) return { unmeasurable: `no RAPL: ${root} has no intel-rapl package zone` };
  const out: RaplCounter[] = [];
  for (const zone of zones.sort()) {
    const dir = join(root, zone);
    try {
      const energyUj = Number(readFileSync(join(dir, 'energy_uj'), 'utf8').trim());
      const maxEnergyRangeUj = Number(readFileSync(join(dir, 'max_energy_range_uj'), 'utf8').trim());
      let name = zone;
      try {
        name = readFileSync(join(dir, 'name'), 'utf8').trim() || zone;
      } catch {
        // The name is a label only.
      }
      if (!Number.isFinite(energyUj) || !Number.isFinite(maxEnergyRangeUj) || maxEnergyRangeUj <= 0) {
        return { unmeasurable: `RAPL ${zone}: energy_uj or max_energy_range_uj is not a number` };
      }
      out.push({ zone, name, energyUj, maxEnergyRangeUj });
    } catch (err) {
      const code = (err as { code?: string }).code;
      return {
        unmeasurable:
          code === 'EACCES' || code === 'EPERM'
            ? `RAPL ${join(dir, 'energy_uj')} is not readable by this user (root-only since Linux 5.10; run as root or make it readable)`
            : `RAPL ${zone} cannot be read (${code ?? 'error'})`,
      };
    }
  }
  return out;
}

/** Joules between two readings of the same counters; a counter that wrapped past max_energy_range_uj is unwrapped once. */
export function raplJoules(before: readonly RaplCounter[], after: readonly RaplCounter[]): number {
  let uj = 0;
  for (const a of after) {
    const b = before.find((x) => x.zone === a.zone);
    if (!b) continue;
    uj += a.energyUj >= b.energyUj ? a.energyUj - b.energyUj : a.maxEnergyRangeUj - b.energyUj + a.energyUj;
  }
  return uj / 1e6;
}

/** `RAPL package-0 + package-1`, for the figure's source. */
export function raplSource(counters: readonly RaplCounter[]): string {
  return `RAPL ${counters.map((c) => c.name).join(' + ')}`;
}

/** One `nvidia-smi --query-gpu=timestamp,pci.bus_id,power.draw --format=csv,noheader,nounits` line. */
export interface PowerReading {
  readonly atMs: number;
  readonly busId: string;
  readonly watts: number;
}

/** Parses nvidia-smi's `2026/11/27 13:37:14.123` timestamp (local time) to epoch ms; NaN when it is not one. */
export function nvidiaTimestampMs(text: string): number {
  const m = /^(\d{4})\/(\d{2})\/(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(text.trim());
  if (!m) return Number.NaN;
  const [, y, mo, d, h, mi, s, frac] = m;
  const ms = frac ? Math.round(Number(`0.${frac}`) * 1000) : 0;
  return new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms).getTime();
}

/** Power lines; `[N/A]` and malformed lines are skipped (a board that does not report power yields none). */
export function parsePowerLines(text: string): PowerReading[] {
  const out: PowerReading[] = [];
  for (const line of text.split('\n')) {
    const [ts, bus, w] = line.split(',').map((x) => x.trim());
    if (ts === undefined || bus === undefined || w === undefined) continue;
    const atMs = nvidiaTimestampMs(ts);
    const watts = Number(w);
    if (Number.isFinite(atMs) && w !== '' && Number.isFinite(watts)) out.push({ atMs, busId: bus, watts });
  }
  return out;
}

/** One `--query-compute-apps=pid,used_memory,gpu_bus_id --format=csv,noheader,nounits` line: a process on one GPU. */
export interface ComputeAppReading {
  readonly pid: number;
  readonly usedBytes: number;
  readonly busId: string;
}

export function parseComputeApps(text: string): ComputeAppReading[] {
  const out: ComputeAppReading[] = [];
  for (const line of text.split('\n')) {
    const [pid, used, bus] = line.split(',').map((x) => x.trim());
    if (pid === undefined || used === undefined) continue;
    const p = Number(pid);
    const mib = Number(used);
    if (pid !== '' && Number.isInteger(p) && used !== '' && Number.isFinite(mib)) out.push({ pid: p, usedBytes: mib * MIB, busId: bus ?? '' });
  }
  return out;
}

/**
 * Joules in [startMs, endMs] from power samples of one board, by the
 * trapezoid rule, with the power at the window's edges interpolated between
 * the samples around them. Null when the samples do not cover the window
 * (none before its start or after its end): extrapolating would invent power.
 */
export function integratePower(readings: readonly PowerReading[], startMs: number, endMs: number): number | null {
  const r = [...readings].sort((a, b) => a.atMs - b.atMs);
  const first = r[0];
  const last = r[r.length - 1];
  if (!first || !last || first.atMs > startMs || last.atMs < endMs || endMs <= startMs) return null;
  const at = (t: number): number => {
    for (let i = 1; i < r.length; i++) {
      const a = r[i - 1] as PowerReading;
      const b = r[i] as PowerReading;
      if (b.atMs >= t) return b.atMs === a.atMs ? b.watts : a.watts + ((b.watts - a.watts) * (t - a.atMs)) / (b.atMs - a.atMs);
    }
    return last.watts;
  };
  const points = [{ t: startMs, w: at(startMs) }, ...r.filter((x) => x.atMs > startMs && x.atMs < endMs).map((x) => ({ t: x.atMs, w: x.watts })), { t: endMs, w: at(endMs) }];
  let joules = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as { t: number; w: number };
    const b = points[i] as { t: number; w: number };
    joules += ((a.w + b.w) / 2) * ((b.t - a.t) / 1000);
  }
  return joules;
}

/** The per-sample figure, or why there is none. */
export function energyFigure(joules: number, samples: number, windowMs: number, source: string, scope: string): Measured<EnergyFigure> {
  if (samples <= 0) return { unmeasurable: 'no rows were processed in the window' };
  return { joules, joulesPerSample: joules / samples, samples, windowMs, source, scope };
}

/** Several rounds' figures as one: joules and rows summed (so J/sample is pooled), the window summed; unmeasurable if any round was. */
export function sumEnergy(figures: readonly (Measured<EnergyFigure> | undefined)[]): Measured<EnergyFigure> | undefined {
  if (figures.length === 0 || figures.some((f) => f === undefined)) return undefined;
  const bad = figures.find((f) => isUnmeasurable(f));
  if (bad) return bad as Unmeasurable;
  const ok = figures as readonly EnergyFigure[];
  const first = ok[0] as EnergyFigure;
  const joules = ok.reduce((a, f) => a + f.joules, 0);
  const samples = ok.reduce((a, f) => a + f.samples, 0);
  return { ...first, joules, samples, joulesPerSample: joules / samples, windowMs: ok.reduce((a, f) => a + f.windowMs, 0) };
}

/** The highest of several rounds' GPU peaks; unmeasurable if every round was. */
export function maxGpuMemory(figures: readonly (Measured<GpuMemoryFigure> | undefined)[]): Measured<GpuMemoryFigure> | undefined {
  const ok = figures.filter((f): f is GpuMemoryFigure => f !== undefined && !isUnmeasurable(f));
  if (ok.length === 0) return figures.find((f) => f !== undefined);
  return ok.reduce((a, f) => (f.peakBytes > a.peakBytes ? f : a));
}
