/**
 * What the engine benches share: the median of rounds, and one timed pass
 * of a session over prepared batches with the process CPU time beside the
 * wall time (on a shared machine the CPU time is the steadier measure of
 * the work done).
 */
import type { EngineSession, TensorMap } from '../src/index.js';

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

export interface PassTime {
  /** Mean wall-clock ms per batch. */
  readonly wall: number;
  /** Mean process CPU ms (user + system, all threads) per batch: the work done, without time spent waiting for a core. */
  readonly cpu: number;
}

/** One pass over `batches`, after `warm` untimed runs of the first batch. */
export async function pass(session: EngineSession, batches: readonly TensorMap[], warm = 2): Promise<PassTime> {
  for (let i = 0; i < warm; i++) await session.run(batches[0] as TensorMap);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const b of batches) await session.run(b);
  const c = process.cpuUsage(c0);
  return { wall: (performance.now() - t0) / batches.length, cpu: (c.user + c.system) / 1000 / batches.length };
}
