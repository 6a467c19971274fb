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
import type { WorkerEngine, WorkerInfo } from '../../core/queue-launch.js';

/** BullMQ queue that carries inferbench jobs. */
export const QUEUE_NAME = 'inferbench';
const REGISTRY_KEY = 'inferbench:workers';

/** How often a worker refreshes its heartbeat, and how old one may be before the worker counts as gone. */
export const HEARTBEAT_MS = 2000;
export const STALE_AFTER_MS = 15_000;

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

/**
 * A registry entry as a worker wrote it, or null for anything else: the
 * registry is a plain Redis hash anyone with access can write, and one
 * entry that is not JSON (or not a worker) must not stop the coordinator
 * or a new worker.
 */
export function parseWorkerEntry(key: string, text: string): WorkerInfo | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const w = value as Partial<Record<keyof WorkerInfo, unknown>>;
  const ok = w.name === key && typeof w.id === 'string' && typeof w.heartbeat === 'number' && typeof w.concurrency === 'number' &&
    typeof w.environment === 'object' && w.environment !== null && Array.isArray(w.engines) &&
    w.engines.every((e: unknown) => typeof e === 'object' && e !== null && typeof (e as WorkerEngine).id === 'string' && typeof (e as WorkerEngine).available === 'boolean');
  return ok ? (value as WorkerInfo) : null;
}

/** Every worker entry that parses, fresh or not, by name. */
export async function registeredWorkers(redis: Redis): Promise<WorkerInfo[]> {
  const all = await redis.hgetall(REGISTRY_KEY);
  return Object.entries(all)
    .map(([key, text]) => parseWorkerEntry(key, text))
    .filter((w): w is WorkerInfo => w !== null)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Workers whose heartbeat is fresh, by name. */
export async function liveWorkers(redis: Redis, now = Date.now()): Promise<WorkerInfo[]> {
  return (await registeredWorkers(redis)).filter((w) => now - w.heartbeat < STALE_AFTER_MS);
}
