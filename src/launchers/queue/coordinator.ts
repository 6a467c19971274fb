/**
 * The coordinator's side of a distributed sweep: connect (failing fast with
 * the masked address when Redis is unreachable), wait for the workers, add
 * one BullMQ job per group (of any kind registered in
 * src/core/queue-jobs.ts), and hand each outcome back as it arrives.
 * Jobs carry the run id in their id, so two coordinators on one queue never
 * see each other's results, and a job re-offered after a worker died is
 * still one job, counted once. Ctrl-C removes the run's waiting jobs and
 * waits (up to a timeout) for the running ones.
 */
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import queuePackages from './queue-require.cjs';
import { UserError } from '../../core/errors.js';
import { notRunInterrupted } from '../../core/results.js';
import { kindOfJob, type QueueJob } from '../../core/queue-jobs.js';
import { queueJobId } from './job-schema.js';
import { liveConnectionOptions, probeRedis, redisLost, type RedisAddress } from './redis-url.js';
import type { CoordinatorOutcome, JobHooks, JobOutcome, WorkerInfo } from '../../core/queue-launch.js';
import { liveWorkers, QUEUE_NAME, registeredWorkers, STALE_AFTER_MS } from './worker-registry.js';

/** Loaded when this module is: a coordinator needs both at once. */
const { bullmq, ioredis } = queuePackages;

/** How often the coordinator looks for jobs whose workers are gone. */
const WATCHDOG_MS = 5000;

/** Whether the coordinator is waiting for a worker to come back, and since when. */
interface Stranding {
  since: number | null;
}

export class QueueCoordinator {
  private constructor(
    readonly address: RedisAddress,
    private readonly redis: Redis,
    private readonly queue: Queue,
  ) {}

  /** Probes Redis (a UserError with the masked URL when unreachable), then opens the queue. */
  static async connect(address: RedisAddress): Promise<QueueCoordinator> {
    await probeRedis(address);
    const connection = liveConnectionOptions(address);
    const redis = new ioredis.Redis(connection);
    redis.on('error', () => undefined);
    const queue = new bullmq.Queue(QUEUE_NAME, { connection });
    queue.on('error', () => undefined);
    await queue.waitUntilReady();
    return new QueueCoordinator(address, redis, queue);
  }

  /**
   * The live workers, after waiting up to `timeoutMs` for at least one (or
   * for every worker `names` lists). A named worker that never shows is a
   * UserError listing those present.
   */
  async waitForWorkers(names: readonly string[] | null, timeoutMs: number): Promise<WorkerInfo[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const live = await liveWorkers(this.redis);
      const missing = names ? names.filter((n) => !live.some((w) => w.name === n)) : [];
      const ready = names ? missing.length === 0 : live.length > 0;
      if (ready) return names ? live.filter((w) => names.includes(w.name)) : live;
      if (Date.now() > deadline) {
        const present = live.length === 0 ? 'no worker is registered' : `workers present: ${live.map((w) => w.name).join(', ')}`;
        const what = names ? `worker${missing.length === 1 ? '' : 's'} ${missing.join(', ')} did not register on ${this.address.masked}` : `no inferbench worker is registered on ${this.address.masked}`;
        throw new UserError(`${what} (${present})`, `start one on each machine: inferbench worker --queue ${this.address.masked} --name NAME`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Adds every job and resolves once each has an outcome (or rejects with a UserError when Redis goes away). */
  async runJobs<Job extends QueueJob>(jobs: readonly Job[], hooks: JobHooks<Job>): Promise<void> {
    if (jobs.length === 0) return;
    // Read events from the stream's current end, not from whenever the reader's first XREAD lands: a job refused
    // or failed within milliseconds of being added would otherwise be missed, and the run would wait forever.
    const [last] = await this.redis.xrevrange(this.queue.keys.events!, '+', '-', 'COUNT', 1);
    const events = new bullmq.QueueEvents(QUEUE_NAME, { connection: liveConnectionOptions(this.address), lastEventId: last?.[0] ?? '0-0' });
    events.on('error', () => undefined);
    await events.waitUntilReady();
    const pending = new Map<string, Job>(jobs.map((job, i) => [queueJobId(job.runId, i), job]));
    let chain = Promise.resolve();
    let settle: (() => void) | undefined;
    let fail: ((err: Error) => void) | undefined;
    const finished = new Promise<void>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    const deliver = (jobId: string, outcome: () => CoordinatorOutcome): void => {
      const job = pending.get(jobId);
      if (!job) return;
      pending.delete(jobId);
      chain = chain.then(() => hooks.onOutcome(job, outcome())).then(() => {
        if (pending.size === 0) settle?.();
      }, (err: unknown) => fail?.(err instanceof Error ? err : new Error(String(err))));
    };
    events.on('completed', ({ jobId, returnvalue }) => deliver(jobId, () => (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as JobOutcome));
    events.on('failed', ({ jobId, failedReason }) => deliver(jobId, () => ({ kind: 'failed', reason: failedReason })));
    const onEnd = () => fail?.(redisLost(this.address, 'the connection closed and could not be re-opened'));
    this.redis.on('end', onEnd);
    // A job nobody can take any more (the workers it may run on stopped sending heartbeats) would wait forever.
    const stranding: Stranding = { since: null };
    const watchdog = setInterval(() => void this.watchWorkers(pending, deliver, stranding, hooks).catch(() => undefined), WATCHDOG_MS);
    const onAbort = () => void this.interrupt(pending, deliver, hooks.drainTimeoutMs);
    hooks.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await this.queue.addBulk(
        [...pending].map(([jobId, data]) => ({ name: kindOfJob(data).name, data, opts: { jobId, attempts: 1, removeOnComplete: true, removeOnFail: true } })),
      );
      if (hooks.signal?.aborted) onAbort();
      await finished;
      await chain;
    } finally {
      clearInterval(watchdog);
      hooks.signal?.removeEventListener('abort', onAbort);
      this.redis.off('end', onEnd);
      await events.close().catch(() => undefined);
    }
  }

  /**
   * While jobs are pending: when no worker that may run one of them is
   * alive (none sent a heartbeat for STALE_AFTER_MS), says so and how long
   * it waits; if none came back within `workerTimeoutMs`, withdraws those
   * jobs and fails them with that reason, whether a worker had taken them
   * (it died mid-job, and nobody is left to notice its stalled lock) or not.
   */
  private async watchWorkers<Job extends QueueJob>(pending: Map<string, Job>, deliver: (id: string, o: () => CoordinatorOutcome) => void, stranding: Stranding, hooks: JobHooks<Job>): Promise<void> {
    if (pending.size === 0) return;
    const registered = await registeredWorkers(this.redis);
    const now = Date.now();
    const live = new Set(registered.filter((w) => now - w.heartbeat < STALE_AFTER_MS).map((w) => w.name));
    const stranded = [...pending].filter(([, job]) => !(job.workers ?? [...live]).some((n) => live.has(n)));
    const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
    if (stranded.length === 0) {
      if (stranding.since !== null) hooks.onNotice?.(`a worker is alive again on ${this.address.masked}; the jobs go on`);
      stranding.since = null;
      return;
    }
    if (stranding.since === null) {
      stranding.since = now;
      const last = Math.max(...registered.map((w) => w.heartbeat), 0);
      const heard = last > 0 ? `the last heartbeat came ${seconds(now - last)} ago` : 'none is registered';
      const who = live.size === 0 ? 'no worker is alive' : `no worker that may run ${stranded.length} of the pending jobs is alive`;
      hooks.onNotice?.(`${who} on ${this.address.masked} (${heard}); waiting up to ${seconds(hooks.workerTimeoutMs)} (--worker-timeout) for one to come back, then their cells are recorded as errored`);
      return;
    }
    if (now - stranding.since < hooks.workerTimeoutMs) return;
    for (const [id, job] of stranded) {
      await this.queue.remove(id).catch(() => 0);
      const who = job.workers !== null ? `worker ${job.workers.join(', ')}` : 'every worker';
      deliver(id, () => ({ kind: 'failed', reason: `no worker alive for ${seconds(hooks.workerTimeoutMs)} (--worker-timeout): ${who} stopped sending heartbeats, none came back` }));
    }
    stranding.since = null;
  }

  /** Ctrl-C: remove what no worker took yet, wait for the rest up to the timeout, then give up on them. */
  private async interrupt(pending: Map<string, QueueJob>, deliver: (id: string, o: () => CoordinatorOutcome) => void, timeoutMs: number): Promise<void> {
    for (const id of [...pending.keys()]) {
      const job = await this.queue.getJob(id).catch(() => undefined);
      const state = job ? await job.getState().catch(() => 'unknown') : 'unknown';
      if (job && (state === 'waiting' || state === 'delayed' || state === 'prioritized' || state === 'paused')) {
        const removed = await job.remove().then(() => true, () => false);
        if (removed) deliver(id, () => ({ kind: 'interrupted', reason: notRunInterrupted() }));
      }
    }
    if (pending.size === 0) return;
    await new Promise((r) => setTimeout(r, timeoutMs).unref());
    for (const id of [...pending.keys()]) {
      await this.queue.remove(id).catch(() => 0);
      deliver(id, () => ({ kind: 'interrupted', reason: `not recorded: still running on a worker ${Math.round(timeoutMs / 1000)} s after Ctrl-C` }));
    }
  }

  /** Every worker entry in the registry, live or not (a replacement's fingerprint for the record). */
  registered(): Promise<WorkerInfo[]> {
    return registeredWorkers(this.redis);
  }

  async close(): Promise<void> {
    await this.queue.close().catch(() => undefined);
    this.redis.disconnect();
  }
}
