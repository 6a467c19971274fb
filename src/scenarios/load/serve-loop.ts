/**
 * One probe of the server scenario: a single-threaded Node server with one
 * model session and a dynamic batcher, fed an arrival schedule drawn in
 * advance. Pure over its clock and its batch handler, so tests run it on a
 * virtual clock with a mock engine of known service time.
 *
 * The loop takes in every request whose scheduled arrival has passed, then
 * the batcher decides (Triton's dynamic batcher, max_queue_delay): when
 * the engine is free it takes the waiting requests in arrival order, up to
 * `maxBatch`, as soon as `maxBatch` are waiting or the oldest has waited
 * `maxWaitMs` since its scheduled arrival; otherwise it sleeps until the
 * next arrival or that deadline. A batch is prepared (tokenize, collate,
 * wrap), run and post-processed, each part timed.
 *
 * Latency is completion minus the **scheduled** arrival, never minus the
 * time the loop took the request in: when an engine call blocks the event
 * loop (onnxruntime-node's `run()` does), requests that arrive meanwhile
 * are taken in only after it returns, exactly as a Node server would see
 * them, and their latency counts the wait (no coordinated omission).
 */
import type { RequestSamples } from './load-results.js';
import type { ArrivalSchedule } from './arrival-schedule.js';
import type { Clock } from './clock.js';
import { interruptedBy } from '../../core/stop-cause.js';

/** The work of one engine call, in three timed parts. */
export interface BatchHandler<P, O> {
  /** Tokenize and collate the rows of these requests (indices into the schedule), inputs wrapped for the engine. */
  prepare(requests: readonly number[]): P | Promise<P>;
  /** The engine call; resolves (or returns) once the outputs are in host memory. */
  run(prepared: P): O | Promise<O>;
  /** Scores and labels per request, serialised as a response. */
  post(outputs: O, requests: readonly number[]): void | Promise<void>;
}

/** The dynamic batcher's settings. */
export interface BatcherSettings {
  readonly maxBatch: number;
  /** 0: never wait for a batch to fill (Triton's default). */
  readonly maxWaitMs: number;
}

/** A rule that may end a probe early; asked after every batch. */
export interface ProbeStopRule {
  /** Latency limit of the goal: a request over it is over, whether completed or still waiting. */
  readonly limitMs: number;
  /** `over` measured requests over the limit among `decided` (completed, plus waiting ones already over it); a reason to stop, or null. */
  readonly decide: (over: number, decided: number) => string | null;
}

export interface ServeOptions<P, O> {
  readonly clock: Clock;
  readonly schedule: ArrivalSchedule;
  readonly batcher: BatcherSettings;
  readonly handler: BatchHandler<P, O>;
  /** After the last arrival, how long the queue may drain before the probe ends with requests unfinished. */
  readonly drainMs: number;
  /** Delay from the call to the first arrival, so the first request is not late for setting up. */
  readonly leadMs?: number;
  readonly stopRule?: ProbeStopRule;
  readonly signal?: AbortSignal;
}

/** What one probe produced: every measured request's times, and why it ended early if it did. */
export interface ServedProbe {
  readonly samples: RequestSamples;
  readonly warmupRequests: number;
  readonly endedEarly: string | null;
  /** Every scheduled arrival happened before the probe ended (it may still have been cut while draining). */
  readonly scheduleComplete: boolean;
  /** Engine calls made, warm-up ones included. */
  readonly batches: number;
}

/** Per-request times of a probe in progress, indexed like the schedule. */
class RequestLog {
  readonly enqueuedAt: Float64Array;
  readonly startedAt: Float64Array;
  readonly prepareMs: Float64Array;
  readonly engineMs: Float64Array;
  readonly postMs: Float64Array;
  readonly doneAt: Float64Array;
  readonly batchSize: Int32Array;
  readonly batchId: Int32Array;

  constructor(n: number) {
    this.enqueuedAt = new Float64Array(n).fill(NaN);
    this.startedAt = new Float64Array(n).fill(NaN);
    this.prepareMs = new Float64Array(n).fill(NaN);
    this.engineMs = new Float64Array(n).fill(NaN);
    this.postMs = new Float64Array(n).fill(NaN);
    this.doneAt = new Float64Array(n).fill(NaN);
    this.batchSize = new Int32Array(n);
    this.batchId = new Int32Array(n).fill(-1);
  }
}

const orNull = (v: number): number | null => (Number.isNaN(v) ? null : v);

/**
 * The measured requests' columns (see RequestSamples), times relative to
 * the first measured arrival. Requests scheduled after the probe ended
 * never arrived and are not counted.
 */
function samplesOf(log: RequestLog, arrivals: Float64Array, warmup: number, t0: number, endedAt: number): RequestSamples {
  const s: { [K in keyof RequestSamples]: (number | null)[] } = {
    scheduledMs: [], latencyMs: [], completed: [], queueMs: [], prepareMs: [], engineMs: [], postMs: [], batchSize: [], batchId: [], enqueueLateMs: [],
  };
  const origin = arrivals[warmup] as number;
  for (let i = warmup; i < arrivals.length && t0 + (arrivals[i] as number) <= endedAt; i++) {
    const at = t0 + (arrivals[i] as number);
    const done = log.doneAt[i] as number;
    const completed = !Number.isNaN(done);
    s.scheduledMs.push((arrivals[i] as number) - origin);
    s.latencyMs.push(completed ? done - at : Math.max(0, endedAt - at));
    s.completed.push(completed ? 1 : 0);
    s.queueMs.push(completed ? (log.startedAt[i] as number) - at : Math.max(0, endedAt - at));
    s.prepareMs.push(orNull(log.prepareMs[i] as number));
    s.engineMs.push(orNull(log.engineMs[i] as number));
    s.postMs.push(orNull(log.postMs[i] as number));
    s.batchSize.push(completed ? (log.batchSize[i] as number) : null);
    s.batchId.push(completed ? (log.batchId[i] as number) : null);
    s.enqueueLateMs.push(Number.isNaN(log.enqueuedAt[i] as number) ? null : (log.enqueuedAt[i] as number) - at);
  }
  return s as unknown as RequestSamples;
}

/** First index in [from, to) whose arrival is at or after `t` (arrivals are sorted). */
function firstAtOrAfter(arrivals: Float64Array, t: number, from: number, to: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((arrivals[mid] as number) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Runs one probe to the end of its schedule (or an early stop), then drains the queue for at most `drainMs`. */
export async function serveSchedule<P, O>(options: ServeOptions<P, O>): Promise<ServedProbe> {
  const { clock, handler, batcher } = options;
  const arrivals = options.schedule.timesMs;
  const warmup = options.schedule.warmup;
  const n = arrivals.length;
  if (batcher.maxBatch < 1) throw new RangeError(`maxBatch must be at least 1, got ${batcher.maxBatch}`);
  const log = new RequestLog(n);
  const t0 = clock.now() + (options.leadMs ?? 0);
  const lastArrival = t0 + (arrivals[n - 1] as number);
  let admitted = 0;
  let started = 0;
  let batches = 0;
  let over = 0;
  let within = 0;
  let endedEarly: string | null = null;
  for (;;) {
    const now = clock.now();
    while (admitted < n && t0 + (arrivals[admitted] as number) <= now) log.enqueuedAt[admitted++] = now;
    if (options.signal?.aborted) {
      endedEarly = interruptedBy();
      break;
    }
    const waiting = admitted - started;
    if (waiting === 0) {
      if (admitted === n) break;
      const slept = clock.sleepUntil(t0 + (arrivals[admitted] as number));
      if (slept) await slept;
      continue;
    }
    if (admitted === n && now > lastArrival + options.drainMs) {
      endedEarly = `the queue had not drained ${(options.drainMs / 1000).toFixed(2)} s after the last arrival`;
      break;
    }
    const deadline = t0 + (arrivals[started] as number) + batcher.maxWaitMs;
    if (waiting < batcher.maxBatch && now < deadline) {
      const slept = clock.sleepUntil(admitted < n ? Math.min(t0 + (arrivals[admitted] as number), deadline) : deadline);
      if (slept) await slept;
      continue;
    }
    const size = Math.min(waiting, batcher.maxBatch);
    const requests: number[] = [];
    for (let i = started; i < started + size; i++) requests.push(i);
    started += size;
    const id = batches++;
    const begin = clock.now();
    // A part that returns a plain value is not awaited: that await would yield only a microtask (no I/O gets
    // through either way) yet cost a promise, and under an async hook (node:test installs one) a tracked one;
    // on a virtual clock, where a probe serves a million requests in seconds, those promises were most of its CPU.
    const preparing = handler.prepare(requests);
    const prepared = preparing instanceof Promise ? await preparing : preparing;
    const ready = clock.now();
    const running = handler.run(prepared);
    const outputs = running instanceof Promise ? await running : running;
    const ran = clock.now();
    const posting = handler.post(outputs, requests);
    if (posting instanceof Promise) await posting;
    const done = clock.now();
    for (const i of requests) {
      log.startedAt[i] = begin;
      log.prepareMs[i] = ready - begin;
      log.engineMs[i] = ran - ready;
      log.postMs[i] = done - ran;
      log.doneAt[i] = done;
      log.batchSize[i] = size;
      log.batchId[i] = id;
      if (i >= warmup && options.stopRule) {
        if (done - (t0 + (arrivals[i] as number)) > options.stopRule.limitMs) over++;
        else within++;
      }
    }
    if (options.stopRule) {
      // Requests not yet started whose age already exceeds the limit are over it whatever happens next.
      const from = Math.max(started, warmup);
      const waitingOver = Math.max(0, firstAtOrAfter(arrivals, done - t0 - options.stopRule.limitMs, from, n) - from);
      endedEarly = options.stopRule.decide(over + waitingOver, over + waitingOver + within);
      if (endedEarly !== null) break;
    }
  }
  const end = clock.now();
  return { samples: samplesOf(log, arrivals, warmup, t0, end), warmupRequests: warmup, endedEarly, scheduleComplete: lastArrival <= end, batches };
}
