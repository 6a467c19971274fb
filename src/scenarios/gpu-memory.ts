import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { nvidiaGpus } from '../core/gpu.js';

const MIB = 1024 * 1024;

/**
 * GPU memory in use, sampled in the background by one long-lived
 * `nvidia-smi --query-gpu=memory.used -lms <interval>` process. Reading the
 * latest value at each token is then a field read: spawning nvidia-smi per
 * token would take tens of milliseconds and swamp what is being timed. The
 * figure is the whole device's memory in use (GPU 0), which is what
 * nvidia-smi can report inside containers where process ids do not match.
 */
export class GpuMemoryMonitor {
  private current: number | null = null;
  private peakBytes = 0;
  private readonly child: ChildProcess;

  private constructor(intervalMs: number) {
    this.child = spawn('nvidia-smi', ['--id=0', '--query-gpu=memory.used', '--format=csv,noheader,nounits', '-lms', String(intervalMs)], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    this.child.on('error', () => {
      this.current = null;
    });
    let pending = '';
    const out = this.child.stdout as Readable;
    out.setEncoding('utf8');
    out.on('data', (chunk: string) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const mib = Number(line.trim());
        if (line.trim() !== '' && Number.isFinite(mib)) {
          this.current = mib * MIB;
          if (this.current > this.peakBytes) this.peakBytes = this.current;
        }
      }
    });
    // Sampling must never keep the process alive on its own.
    this.child.unref();
    (out as Readable & { unref?: () => void }).unref?.();
  }

  /** A running monitor, or null when no NVIDIA GPU is visible (then there is nothing to sample). */
  static start(intervalMs = 50): GpuMemoryMonitor | null {
    if (nvidiaGpus().length === 0) return null;
    return new GpuMemoryMonitor(intervalMs);
  }

  /** Latest sample in bytes; null before the first sample arrives or when nvidia-smi failed. */
  latest(): number | null {
    return this.current;
  }

  /** Highest sample seen since start. */
  peak(): number {
    return this.peakBytes;
  }

  stop(): void {
    if (this.child.exitCode === null) this.child.kill();
  }
}
