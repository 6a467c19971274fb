/**
 * The queue side of `inferbench worker`: take jobs from the shared BullMQ
 * queue, check each against the schema, decide whether this worker should
 * run it, and hand it on as the one job shape every launcher takes,
 * `{ kind, payload }` (the kind is the job's schema, the payload the
 * checked job), to the runner registered for the kind (src/runs, which
 * measures it through the same child-process launcher as a local run).
 *
 * Refusal works with plain BullMQ semantics: a worker that must not or
 * cannot run a job (another worker's `--on-each-worker` job; an engine it
 * lacks; a model or rows whose hash does not match) writes its reason into
 * the job's `refused` map, moves the job back with `moveToDelayed` and
 * throws `DelayedError`, which re-offers it to every worker without counting
 * an attempt. When every live worker has refused, the worker that refused
 * last completes the job with the reasons, and the coordinator records the
 * cells as skipped (or errored) with each worker's reason.
 */
import type { Job } from 'bullmq';
import queuePackages from './queue-require.cjs';
import { describeError } from '../../core/errors.js';
import { GuardedWorker, unreadableReason } from './guarded-worker.js';
import type { Job as LaunchJob } from '../../core/launch-jobs.js';
import { kindOfJob, type QueueJob } from '../../core/queue-jobs.js';
import { parseQueueJob } from './job-schema.js';
import { liveConnectionOptions, redisLost, type RedisAddress } from './redis-url.js';
import { HEARTBEAT_MS, liveWorkers, QUEUE_NAME, registerWorker, unregisterWorker } from './worker-registry.js';
import type { JobOutcome, WorkerInfo } from '../../core/queue-launch.js';

/** Loaded when this module is: a worker needs both at once. */
const { bullmq, ioredis } = queuePackages;


/** A refusal the runner raises: the engine is not on this worker (the cell becomes skipped, not errored, if nobody has it). */
export class EngineMissing extends Error {
  override readonly name = 'EngineMissing';
}

export interface WorkerLoopOptions {
  readonly address: RedisAddress;
  readonly info: Omit<WorkerInfo, 'heartbeat'>;
  readonly concurrency: number;
  /** Lock time of a job: a worker silent this long (killed, cut off) loses the job to another. */
  readonly stallMs: number;
  /** Runs one accepted job (kind: its schema; payload: the checked job); `retries` counts the workers that took it before and died. */
  readonly run: (job: LaunchJob, retries: number) => Promise<readonly unknown[]>;
  readonly log: (line: string) => void;
}

export interface RunningWorker {
  /** Resolves when the worker stops: `close()` was called, or Redis went away (rejects with a UserError). */
  readonly done: Promise<void>;
  close(): Promise<void>;
}

/** Whether every worker that may run a job (its list, else every live one) has refused it: then nobody will. */
function everyoneRefused(allowed: readonly string[] | null, live: readonly string[], refused: Readonly<Record<string, string>>): boolean {
  const candidates = allowed ?? live;
  return candidates.every((name) => Object.hasOwn(refused, name) || !live.includes(name));
}

/** A refusal as it is stored and logged: one line, no control characters, bounded (the next worker re-checks the job against the schema). */
function oneLine(reason: string): string {
  return reason.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/gu, ' ').slice(0, 4000);
}

/** A job's id as logged: ids come from whoever wrote the job, so one line and bounded. */
const idOf = (job: Job): string => oneLine(String(job.id ?? '?')).slice(0, 128);

/** How long a refused job waits before it is offered again, so other workers get their turn. */
function bounceDelayMs(): number {
  return 50 + Math.floor(Math.random() * 150);
}

/** Starts the worker: registers its fingerprint, keeps the heartbeat, and processes jobs until closed. */
export async function startWorkerLoop(options: WorkerLoopOptions): Promise<RunningWorker> {
  const { info, log } = options;
  const connection = liveConnectionOptions(options.address);
  const redis = new ioredis.Redis(connection);
  let lost: ((err: Error) => void) | undefined;
  let finish: (() => void) | undefined;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    lost = reject;
  });
  redis.on('error', () => undefined);
  redis.on('end', () => lost?.(redisLost(options.address, 'the connection closed and could not be re-opened')));
  await registerWorker(redis, info);
  const heartbeat = setInterval(() => void registerWorker(redis, info).catch(() => undefined), HEARTBEAT_MS);

  const refuse = async (job: Job, data: QueueJob, reason: string, skip: boolean, token: string | undefined): Promise<JobOutcome> => {
    const refused = { ...data.refused, [info.name]: oneLine(reason) };
    const updated: QueueJob = { ...data, refused };
    await job.updateData(updated);
    if (everyoneRefused(data.workers, (await liveWorkers(redis)).map((w) => w.name), refused)) {
      log(`job ${idOf(job)}: refused by every worker (${Object.keys(refused).join(', ')}); reported back; here: ${oneLine(reason)}`);
      return { kind: 'refused', refused, skip };
    }
    log(`job ${idOf(job)}: refused here (${oneLine(reason)}); offered to the other workers`);
    await job.moveToDelayed(Date.now() + bounceDelayMs(), token);
    throw new bullmq.DelayedError();
  };

  const worker = new GuardedWorker(
    QUEUE_NAME,
    async (job: Job, token?: string): Promise<JobOutcome> => {
      const unreadable = unreadableReason(job);
      if (unreadable !== null) {
        log(`job ${idOf(job)} refused: not an inferbench job (${unreadable}); failed`);
        throw new bullmq.UnrecoverableError(`refused by worker ${info.name}: not an inferbench job (${unreadable})`);
      }
      const parsed = parseQueueJob(job.data);
      if (!parsed.ok) {
        log(`job ${idOf(job)} refused: not an inferbench job (${parsed.reason})`);
        throw new bullmq.UnrecoverableError(`refused by worker ${info.name}: not an inferbench job (${parsed.reason})`);
      }
      const data = parsed.job;
      const kind = kindOfJob(data);
      if ((data.workers !== null && !data.workers.includes(info.name)) || Object.hasOwn(data.refused, info.name)) {
        // Not ours (meant for other workers, or one we already refused): back to the queue for the others.
        if (everyoneRefused(data.workers, (await liveWorkers(redis)).map((w) => w.name), data.refused)) return { kind: 'refused', refused: data.refused, skip: false };
        await job.moveToDelayed(Date.now() + bounceDelayMs(), token);
        throw new bullmq.DelayedError();
      }
      const engineId = kind.engine(data);
      const engine = info.engines.find((e) => e.id === engineId);
      if (!engine?.available) return refuse(job, data, `${engineId} is unavailable on worker ${info.name}: ${engine?.reason ?? 'not an engine this inferbench knows'}`, true, token);
      const retries = job.stalledCounter ?? 0;
      log(`job ${idOf(job)}: ${kind.summary(data)}${retries > 0 ? ` (retry ${retries}: a worker stopped while running it)` : ''}`);
      try {
        const cells = await options.run({ kind: data.schema, payload: data }, retries);
        log(`job ${idOf(job)}: done, ${cells.length} cells posted back`);
        return { kind: 'cells', worker: info.name, cells };
      } catch (err) {
        if (err instanceof bullmq.DelayedError) throw err;
        return refuse(job, data, `worker ${info.name}: ${describeError(err)}`, err instanceof EngineMissing, token);
      }
    },
    {
      connection,
      concurrency: options.concurrency,
      lockDuration: options.stallMs,
      stalledInterval: Math.max(500, Math.floor(options.stallMs / 2)),
      maxStalledCount: 2,
      drainDelay: 1,
      autorun: true,
    },
  );
  worker.on('error', (err) => log(`queue error: ${describeError(err)}`));
  await worker.waitUntilReady();
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    await worker.close();
    await unregisterWorker(redis, info.name).catch(() => undefined);
    redis.disconnect();
    finish?.();
  };
  void done.catch(async () => {
    clearInterval(heartbeat);
    await worker.close(true).catch(() => undefined);
  });
  return { done, close };
}
