import { writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

const IDLE = 0;
const WATCHING = 1;
const STOP = 2;

// Runs in a worker thread. getrusage's maxrss is the kernel's exact
// high-water mark of the whole process, so sampling it every few ms never
// misses a peak; it only reports it up to one period late.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const peak = new BigInt64Array(workerData.peak);
const control = new Int32Array(workerData.control);
for (;;) {
  const c = Atomics.load(control, 0);
  if (c === ${STOP}) break;
  if (c === ${IDLE}) {
    Atomics.wait(control, 0, ${IDLE});
    continue;
  }
  Atomics.store(peak, 0, BigInt(process.resourceUsage().maxRSS) * 1024n);
  Atomics.wait(control, 0, ${WATCHING}, workerData.periodMs);
}
`;

/**
 * Resets the kernel's RSS high-water mark (Linux `/proc/self/clear_refs` 5),
 * so the peak read afterwards is the peak since now rather than since the
 * process started. False where that is not possible.
 */
function resetPeakRss(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Peak RSS of the process, readable at every generated token without a
 * system call on the main thread. Measurement showed why that matters: on a
 * busy machine a getrusage() or /proc read per token gets the JavaScript
 * thread descheduled between engine steps and slows decoding by 15-25%,
 * while reading a shared integer costs nothing. A worker thread keeps the
 * integer current (every `periodMs` while watching, asleep otherwise).
 */
export class PeakRssWatcher {
  private readonly peak = new BigInt64Array(new SharedArrayBuffer(8));
  private readonly control = new Int32Array(new SharedArrayBuffer(4));
  private readonly worker: Worker;

  constructor(periodMs = 2) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { peak: this.peak.buffer, control: this.control.buffer, periodMs } });
    this.worker.unref();
  }

  /**
   * Starts a window: resets the high-water mark where the OS allows and
   * starts sampling. Returns 'call' when peaks count from now, 'process' when
   * they count from the start of the process (no reset possible).
   */
  begin(): 'call' | 'process' {
    const scope = resetPeakRss() ? 'call' : 'process';
    Atomics.store(this.peak, 0, BigInt(process.resourceUsage().maxRSS) * 1024n);
    Atomics.store(this.control, 0, WATCHING);
    Atomics.notify(this.control, 0);
    return scope;
  }

  /** Peak RSS in bytes as of at most one period ago. */
  latest(): number {
    return Number(Atomics.load(this.peak, 0));
  }

  /** Stops sampling and returns the exact peak of the window. */
  end(): number {
    Atomics.store(this.control, 0, IDLE);
    const exact = process.resourceUsage().maxRSS * 1024;
    return Math.max(exact, this.latest());
  }

  async dispose(): Promise<void> {
    Atomics.store(this.control, 0, STOP);
    Atomics.notify(this.control, 0);
    await this.worker.terminate();
  }
}
