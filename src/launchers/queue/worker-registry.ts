/**
 * Who is on the queue: each worker registers its fingerprint (the
 * environment block a local run records, its name and which engines it
 * has) in one Redis hash and refreshes a heartbeat. The coordinator reads
 * it to target and pre-check jobs; workers read it to know when every live
 * worker has refused a job.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { EnvironmentInfo } from '../../core/results.js';

/** BullMQ queue that carries inferbench jobs. */
export const QUEUE_NAME = 'inferbench';
const REGISTRY_KEY = 'inferbench:workers';

/** How often a worker refreshes its heartbeat, and how old one may be before the worker counts as gone. */
export const HEARTBEAT_MS = 2000;
export const STALE_AFTER_MS = 15_000;

export interface WorkerEngine {
  readonly id: string;
  readonly available: boolean;
  /** Why not, with how to enable it; absent when available. */
  readonly reason?: string;
  /** Runtime versions the engine reported (onnxruntime-node, tfjs-core…), when available. */
  readonly versions?: Readonly<Record<string, string>>;
}

/** What a worker registers. */
export interface WorkerInfo {
  readonly name: string;
  /** Short hash of the hardware and software facts: two workers with equal ids ran on alike machines. */
  readonly id: string;
  readonly environment: EnvironmentInfo;
  readonly engines: readonly WorkerEngine[];
  readonly concurrency: number;
  readonly heartbeat: number;
}

/** The fingerprint id: a hash of the environment without its date and commit (they change between runs, not machines). */
export function fingerprintId(environment: EnvironmentInfo): string {
  const { date: _date, gitCommit: _commit, ...machine } = environment;
  return createHash('sha256').update(JSON.stringify(machine)).digest('hex').slice(0, 12);
}

export async function registerWorker(redis: Redis, info: Omit<WorkerInfo, 'heartbeat'>): Promise<void> {
  await redis.hset(REGISTRY_KEY, info.name, JSON.stringify({ ...info, heartbeat: Date.now() }));
}

export async function unregisterWorker(redis: Redis, name: string): Promise<void> {
  await redis.hdel(REGISTRY_KEY, name);
}

/** Workers whose heartbeat is fresh, by name. */
export async function liveWorkers(redis: Redis, now = Date.now()): Promise<WorkerInfo[]> {
  const all = await redis.hgetall(REGISTRY_KEY);
  return Object.values(all)
    .map((text) => JSON.parse(text) as WorkerInfo)
    .filter((w) => now - w.heartbeat < STALE_AFTER_MS)
    .sort((a, b) => a.name.localeCompare(b.name));
}
