/**
 * What the harness-against-bare-loop benches share (bench:overhead on the
 * CPU provider, bench:webgpu on the WebGPU one): the rows as onnxruntime
 * feeds, a bare `session.run` loop timed per call, the harness's own mean
 * over the same work, and the ratio formatting. One copy, so both benches
 * hold the harness to the same yardstick.
 */
import type * as Ort from 'onnxruntime-node';
import type { Benchmark } from '../src/runs/benchmark.js';
import type { EngineSession } from '../src/core/engine-session.js';
import type { TensorMap } from '../src/core/tensor.js';
import type { BenchmarkModel } from '../src/models/benchmark-model.js';

/** `+1.23%` for a ratio of 1.0123. */
export const pct = (ratio: number): string => `${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(2)}%`;

/** A prepared batch as onnxruntime-node feeds (the same typed arrays, no copy). */
export function ortFeeds(ort: typeof Ort, batch: TensorMap): Ort.InferenceSession.FeedsType {
  return Object.fromEntries(Object.entries(batch).map(([k, t]) => [k, new ort.Tensor(t.dtype, t.data as never, t.dims)]));
}

/** A bare loop: two untimed warm runs, then `passes` passes over `feeds`, each call timed alone; mean ms per call. */
export async function bareMean(session: Ort.InferenceSession, feeds: readonly Ort.InferenceSession.FeedsType[], passes: number): Promise<number> {
  for (let w = 0; w < 2; w++) await session.run(feeds[0] as Ort.InferenceSession.FeedsType);
  let total = 0;
  for (let p = 0; p < passes; p++) {
    for (const f of feeds) {
      const t0 = performance.now();
      await session.run(f);
      total += performance.now() - t0;
    }
  }
  return total / (feeds.length * passes);
}

/** The harness's mean engine time per batch for one cell of `bench` on `session`; anything but a completed cell is an error. */
export async function harnessMean(bench: Benchmark, session: EngineSession, name: string, model: BenchmarkModel): Promise<number> {
  const [cell] = await bench.execute(session, { name, model });
  if (cell?.state !== 'completed') throw new Error(`harness cell did not complete: ${JSON.stringify(cell)}`);
  return cell.latency.mean;
}
