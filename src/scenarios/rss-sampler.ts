import { Worker } from 'node:worker_threads';

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

/** Peak RSS seen between begin() and end(), and how often it was sampled. */
export interface RssWindow {
  readonly peakBytes: number;
  readonly samples: number;
  readonly hz: number;
}

/**
 * Samples the process's resident set size from a worker thread at a fixed
 * period (5 ms = 200 Hz by default), so the peak inside a blocking engine
 * call is seen too.
 */
export class RssSampler {
  private readonly state = new BigInt64Array(new SharedArrayBuffer(2 * 8));
  private readonly control = new Int32Array(new SharedArrayBuffer(4));
  private readonly worker: Worker;
  private startedAt = 0;

  constructor(periodMs = 5) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { state: this.state.buffer, control: this.control.buffer, periodMs } });
    this.worker.unref();
  }

  begin(): void {
    Atomics.store(this.state, PEAK, BigInt(process.memoryUsage.rss()));
    Atomics.store(this.state, COUNT, 0n);
    this.startedAt = performance.now();
    this.setControl(SAMPLING);
  }

  private setControl(value: number): void {
    Atomics.store(this.control, 0, value);
    Atomics.notify(this.control, 0);
  }

  end(): RssWindow {
    this.setControl(IDLE);
    const elapsed = (performance.now() - this.startedAt) / 1000;
    const rss = BigInt(process.memoryUsage.rss());
    const peak = Atomics.load(this.state, PEAK);
    const samples = Number(Atomics.load(this.state, COUNT));
    return { peakBytes: Number(rss > peak ? rss : peak), samples, hz: elapsed > 0 ? samples / elapsed : 0 };
  }

  async dispose(): Promise<void> {
    this.setControl(STOP);
    await this.worker.terminate();
  }
}
