import { Worker } from 'node:worker_threads';
import { kernelPeakRssBytes, resetKernelPeakRss } from '../core/kernel-peak-rss.js';

const PEAK = 0;
const COUNT = 1;
const IDLE = 0;
const SAMPLING = 1;
const STOP = 2;

// Runs in a worker thread: onnxruntime-node's run() blocks the main event
// loop, so a timer on the main thread would miss whatever a batch allocates.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const state = new BigInt64Array(workerData.state);
const control = new Int32Array(workerData.control);
const periodMs = workerData.periodMs;
for (;;) {
  const c = Atomics.load(control, 0);
  if (c === ${STOP}) break;
  if (c === ${IDLE}) {
    // Sleep until begin() or dispose(): an idle sampler costs no wakeups.
    Atomics.wait(control, 0, ${IDLE});
    continue;
  }
  const rss = BigInt(process.memoryUsage.rss());
  if (rss > Atomics.load(state, ${PEAK})) Atomics.store(state, ${PEAK}, rss);
  Atomics.add(state, ${COUNT}, 1n);
  Atomics.wait(control, 0, ${SAMPLING}, periodMs);
}
`;

/** Peak RSS seen between begin() and end(), and how it was obtained. */
export interface RssWindow {
  readonly peakBytes: number;
  /** Readings taken by the worker thread; 0 when the kernel's own peak was read. */
  readonly samples: number;
  /** Readings per second achieved; 0 when the kernel's own peak was read. */
  readonly hz: number;
  /** `kernel`: the exact high-water mark the kernel keeps (Linux); `sampled`: the worker thread's readings. */
  readonly source: 'kernel' | 'sampled';
}

/** Set to `worker` to force the sampling thread where the kernel's peak is available (bench:overhead measures its cost). */
export const RSS_SAMPLER_ENV = 'INFERBENCH_RSS_SAMPLER';

/**
 * Peak resident set size of the process over a window (the timed loop).
 *
 * On Linux it reads the kernel's exact high-water mark (reset with
 * `/proc/self/clear_refs` 5 at `begin()`, read with getrusage at `end()`):
 * nothing runs during the window, so nothing competes with the engine for
 * cores, and no peak between readings is missed. Elsewhere, or when the
 * reset is refused, a worker thread samples RSS every `periodMs` (5 ms =
 * 200 Hz by default), so the peak inside a blocking engine call is still
 * seen; on a 2-core machine its wake-ups cost the engine a few percent
 * (bench:overhead measures it with INFERBENCH_RSS_SAMPLER=worker).
 */
export class RssSampler {
  private readonly state = new BigInt64Array(new SharedArrayBuffer(2 * 8));
  private readonly control = new Int32Array(new SharedArrayBuffer(4));
  private readonly worker: Worker | null;
  private startedAt = 0;
  private kernelWindow = false;

  constructor(private readonly periodMs = 5) {
    const kernel = process.env[RSS_SAMPLER_ENV] !== 'worker' && resetKernelPeakRss();
    this.worker = kernel ? null : this.startWorker();
  }

  private startWorker(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { state: this.state.buffer, control: this.control.buffer, periodMs: this.periodMs } });
    worker.unref();
    return worker;
  }

  /** How this sampler finds the peak. */
  get source(): 'kernel' | 'sampled' {
    return this.worker === null ? 'kernel' : 'sampled';
  }

  begin(): void {
    this.startedAt = performance.now();
    this.kernelWindow = this.worker === null && resetKernelPeakRss();
    Atomics.store(this.state, PEAK, BigInt(process.memoryUsage.rss()));
    Atomics.store(this.state, COUNT, 0n);
    if (this.worker !== null) this.setControl(SAMPLING);
  }

  /**
   * Readings the sampling thread took since begin(), read while the window is
   * open (0 when the kernel's peak is used): lets a caller wait until the
   * thread has seen a moment, rather than hope a sleep was long enough.
   */
  samplesSoFar(): number {
    return Number(Atomics.load(this.state, COUNT));
  }

  private setControl(value: number): void {
    Atomics.store(this.control, 0, value);
    Atomics.notify(this.control, 0);
  }

  end(): RssWindow {
    const rss = process.memoryUsage.rss();
    if (this.worker === null) {
      // A refused reset leaves the process-lifetime peak, which would overstate the window: fall back to the two ends.
      const peak = this.kernelWindow ? kernelPeakRssBytes() : Number(Atomics.load(this.state, PEAK));
      return { peakBytes: Math.max(rss, peak), samples: 0, hz: 0, source: 'kernel' };
    }
    this.setControl(IDLE);
    const elapsed = (performance.now() - this.startedAt) / 1000;
    const peak = Number(Atomics.load(this.state, PEAK));
    const samples = Number(Atomics.load(this.state, COUNT));
    return { peakBytes: Math.max(rss, peak), samples, hz: elapsed > 0 ? samples / elapsed : 0, source: 'sampled' };
  }

  async dispose(): Promise<void> {
    if (this.worker === null) return;
    this.setControl(STOP);
    await this.worker.terminate();
  }
}
