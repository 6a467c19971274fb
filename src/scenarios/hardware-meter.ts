import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import {
  energyFigure,
  integratePower,
  isUnmeasurable,
  parseComputeApps,
  parsePowerLines,
  raplJoules,
  raplSource,
  readRapl,
  type EnergyFigure,
  type GpuMemoryFigure,
  type Measured,
  type PowerReading,
  type RaplCounter,
} from '../core/energy.js';
import { nvidiaGpus } from '../core/gpu.js';

/** A running command whose output lines arrive as they are printed. */
export interface RunningCommand {
  stop(): void;
}

/** Starts `command args`, calling `onLine` per output line (injected in tests with recorded nvidia-smi output). */
export type CommandRunner = (command: string, args: readonly string[], onLine: (line: string) => void) => RunningCommand;

/** The real runner: a child process that never keeps this one alive. */
export const spawnRunner: CommandRunner = (command, args, onLine) => {
  const child = spawn(command, [...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  child.on('error', () => {});
  let pending = '';
  const out = child.stdout as Readable;
  out.setEncoding('utf8');
  out.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const l of lines) onLine(l);
  });
  child.unref();
  (out as Readable & { unref?: () => void }).unref?.();
  return {
    stop: () => {
      if (child.exitCode === null) child.kill();
    },
  };
};

export interface MeterOptions {
  /** Root of the powercap tree (fixtures in tests). */
  readonly powercapRoot?: string;
  readonly runner?: CommandRunner;
  /** Whether an NVIDIA GPU is visible; defaults to nvidia-smi -L having one. */
  readonly hasNvidiaGpu?: () => boolean;
  /** The process whose GPU memory is read (the one running the engine). */
  readonly pid?: number;
  /** Wall clock in epoch ms (nvidia-smi stamps its readings in wall time). */
  readonly now?: () => number;
  /** nvidia-smi's sampling interval. */
  readonly intervalMs?: number;
  /** Longest wait for a power reading before the window's start and after its end. */
  readonly settleMs?: number;
}

/** What the hardware said about one timed loop. */
export interface HardwareFigures {
  readonly gpuMemory: Measured<GpuMemoryFigure>;
  readonly gpuEnergy: Measured<EnergyFigure>;
  readonly cpuEnergy: Measured<EnergyFigure>;
}

const NO_GPU = 'no NVIDIA GPU (nvidia-smi lists none)';
const GPU_SCOPE = 'board power (nvidia-smi power.draw), idle power and any other process on the board included';
const CPU_SCOPE = 'whole CPU package(s): every process and idle power included';

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * Samples GPU memory and board power (two `nvidia-smi … -lms` loops) and
 * reads the RAPL counters around one timed loop. Start it before the loop's
 * clock and stop it after: the waits for a power reading on either side of
 * the window happen outside the timed calls.
 */
export class HardwareMeter {
  private readonly power: PowerReading[] = [];
  private readonly apps: string[] = [];
  private readonly commands: RunningCommand[] = [];
  private startMs = 0;
  private raplBefore: Measured<readonly RaplCounter[]> = { unmeasurable: 'not started' };

  private constructor(
    private readonly opts: Required<Omit<MeterOptions, 'hasNvidiaGpu'>>,
    private readonly gpu: boolean,
  ) {}

  static async start(options: MeterOptions = {}): Promise<HardwareMeter> {
    const opts = {
      powercapRoot: options.powercapRoot ?? '/sys/class/powercap',
      runner: options.runner ?? spawnRunner,
      pid: options.pid ?? process.pid,
      now: options.now ?? Date.now,
      intervalMs: options.intervalMs ?? 100,
      settleMs: options.settleMs ?? 3000,
    };
    const meter = new HardwareMeter(opts, (options.hasNvidiaGpu ?? (() => nvidiaGpus().length > 0))());
    if (meter.gpu) {
      const lms = ['--format=csv,noheader,nounits', '-lms', String(opts.intervalMs)];
      meter.commands.push(opts.runner('nvidia-smi', ['--query-gpu=timestamp,pci.bus_id,power.draw', ...lms], (l) => meter.power.push(...parsePowerLines(l))));
      meter.commands.push(opts.runner('nvidia-smi', ['--query-compute-apps=pid,used_memory,gpu_bus_id', ...lms], (l) => meter.apps.push(l)));
      // The window must start after a power reading, or its first part would be extrapolated.
      const deadline = Date.now() + opts.settleMs;
      while (meter.power.length === 0 && Date.now() < deadline) await sleep(10);
    }
    meter.startMs = opts.now();
    meter.raplBefore = readRapl(opts.powercapRoot);
    meter.apps.length = 0;
    return meter;
  }

  /** Ends the window; `samples` is the rows the loop processed in it. */
  async stop(samples: number): Promise<HardwareFigures> {
    const endMs = this.opts.now();
    const raplAfter = readRapl(this.opts.powercapRoot);
    const windowMs = endMs - this.startMs;
    const cpuEnergy: Measured<EnergyFigure> = isUnmeasurable(this.raplBefore)
      ? this.raplBefore
      : isUnmeasurable(raplAfter)
        ? raplAfter
        : energyFigure(raplJoules(this.raplBefore, raplAfter), samples, windowMs, raplSource(raplAfter), CPU_SCOPE);
    if (!this.gpu) return { gpuMemory: { unmeasurable: NO_GPU }, gpuEnergy: { unmeasurable: NO_GPU }, cpuEnergy };
    const apps = parseComputeApps(this.apps.join('\n')).filter((a) => a.pid === this.opts.pid);
    const deadline = Date.now() + this.opts.settleMs;
    while (!this.power.some((p) => p.atMs >= endMs) && Date.now() < deadline) await sleep(10);
    for (const c of this.commands) c.stop();
    const gpuMemory: Measured<GpuMemoryFigure> =
      apps.length === 0
        ? { unmeasurable: `nvidia-smi never listed this process (pid ${this.opts.pid}) during the loop: it holds no GPU memory, or runs in another pid namespace` }
        : { peakBytes: Math.max(...apps.map((a) => a.usedBytes)), windowMs, readings: apps.length, source: 'nvidia-smi --query-compute-apps used_memory of this process (per GPU)' };
    return { gpuMemory, gpuEnergy: this.gpuEnergy(apps.map((a) => a.busId), endMs, samples), cpuEnergy };
  }

  /** Stops sampling without figures (the round failed). */
  abort(): void {
    for (const c of this.commands) c.stop();
  }

  private gpuEnergy(processBuses: readonly string[], endMs: number, samples: number): Measured<EnergyFigure> {
    const boards = [...new Set(this.power.map((p) => p.busId))];
    if (boards.length === 0) return { unmeasurable: 'nvidia-smi gave no power.draw reading (the board does not report power)' };
    let chosen = [...new Set(processBuses)].filter((b) => boards.includes(b));
    let note = '';
    if (chosen.length === 0) {
      if (boards.length > 1) return { unmeasurable: `this process is not in nvidia-smi's compute apps, so which of ${boards.length} GPUs it used is unknown` };
      chosen = boards;
      note = ' (the only GPU; this process was not listed by nvidia-smi)';
    }
    let joules = 0;
    for (const bus of chosen) {
      const j = integratePower(
        this.power.filter((p) => p.busId === bus),
        this.startMs,
        endMs,
      );
      if (j === null) return { unmeasurable: `power readings of GPU ${bus} do not cover the ${Math.round(endMs - this.startMs)} ms loop (sampled every ${this.opts.intervalMs} ms)` };
      joules += j;
    }
    return energyFigure(joules, samples, endMs - this.startMs, `nvidia-smi power.draw, GPU ${chosen.join(' + ')}${note}`, GPU_SCOPE);
  }
}
