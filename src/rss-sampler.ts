import { Worker } from 'node:worker_threads';

const CONTROL = 0;
const PEAK = 1;
const COUNT = 2;
const IDLE = 0n;
const SAMPLING = 1n;
const STOP = 2n;

// Runs in a worker thread: onnxruntime-node's run() blocks the main event
// loop, so a timer on the main thread would miss whatever a batch allocates.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const state = new BigInt64Array(workerData.buffer);
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const periodMs = workerData.periodMs;
for (;;) {
  const control = Atomics.load(state, ${CONTROL});
  if (control === ${STOP}n) break;
  if (control === ${SAMPLING}n) {
    const rss = BigInt(process.memoryUsage.rss());
    if (rss > Atomics.load(state, ${PEAK})) Atomics.store(state, ${PEAK}, rss);
    Atomics.add(state, ${COUNT}, 1n);
  }
  Atomics.wait(sleeper, 0, 0, periodMs);
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
  private readonly state = new BigInt64Array(new SharedArrayBuffer(3 * 8));
  private readonly worker: Worker;
  private startedAt = 0;

  constructor(periodMs = 5) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { buffer: this.state.buffer, periodMs } });
    this.worker.unref();
  }

  begin(): void {
    Atomics.store(this.state, PEAK, BigInt(process.memoryUsage.rss()));
    Atomics.store(this.state, COUNT, 0n);
    this.startedAt = performance.now();
    Atomics.store(this.state, CONTROL, SAMPLING);
  }

  end(): RssWindow {
    Atomics.store(this.state, CONTROL, IDLE);
    const elapsed = (performance.now() - this.startedAt) / 1000;
    const rss = BigInt(process.memoryUsage.rss());
    const peak = Atomics.load(this.state, PEAK);
    const samples = Number(Atomics.load(this.state, COUNT));
    return { peakBytes: Number(rss > peak ? rss : peak), samples, hz: elapsed > 0 ? samples / elapsed : 0 };
  }

  async dispose(): Promise<void> {
    Atomics.store(this.state, CONTROL, STOP);
    await this.worker.terminate();
  }
}
