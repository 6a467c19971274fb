import { CellSkip, describeError } from '../../core/errors.js';
import { OutputRecorder, type RowOutputs } from '../../core/parity.js';
import type { CellKey, CellResult, CompletedCell } from '../../core/results.js';
import type { RssSampler, RssWindow } from '../rss-sampler.js';
import { runTimed, type EngineSession } from '../../core/engine-session.js';
import { computeStatistics, throughput } from '../../core/statistics.js';
import { stopDecision, verdictOf, warmupDone, type StopRule, type WarmupRule } from '../../core/stop-rule.js';
import type { TensorMap } from '../../core/tensor.js';
import type { Dataset, DataRow } from '../../../datasets/dataset.js';
import { gpuMemoryOfProcess } from '../../core/gpu.js';

/** Input preparation for one batch; the model's or the user's callback. */
export type Prepare = (rows: readonly DataRow[]) => TensorMap | Promise<TensorMap>;

/** Everything one cell's measurement needs besides the session. */
export interface MeasureContext {
  readonly dataset: Dataset;
  readonly prepare: Prepare;
  readonly stop: StopRule;
  readonly warmup: WarmupRule;
  readonly maxCv: number;
  readonly sampler: RssSampler;
  readonly loadMs: number;
  /** Label column to collect for accuracy; null when the dataset has none. */
  readonly labelColumn: string | null;
  /** Rows of the first pass whose outputs are kept for parity (0 keeps none). */
  readonly parityRows: number;
  readonly signal: AbortSignal | undefined;
}

/** A measured cell plus what parity and accuracy need from its first pass. */
export interface MeasuredCell {
  readonly cell: CellResult;
  readonly outputs: RowOutputs | null;
  readonly labels: readonly unknown[];
}

/** A cell that could not run: skipped when the engine cannot serve it, errored otherwise. */
export function failedCell(key: CellKey, err: unknown): CellResult {
  if (err instanceof CellSkip) return { ...key, state: 'skipped', reason: err.message };
  return { ...key, state: 'errored', reason: describeError(err) };
}


/**
 * Measures one session at one batch size. Warmup repeats the first batch
 * until steady; the timed loop then makes at least one full pass over the
 * rows and cycles them until the stop rule holds. Per batch, the item
 * callback and the engine call are timed apart; the peak RSS of the timed
 * loop is the kernel's high-water mark (or a worker thread's samples where
 * that cannot be reset; see RssSampler).
 */
export async function measureCell(key: CellKey, session: EngineSession, ctx: MeasureContext): Promise<MeasuredCell> {
  const runMs: number[] = [];
  const prepareMs: number[] = [];
  const items: number[] = [];
  const warmupMs: number[] = [];
  const forwardMs: number[] = [];
  const recorder = new OutputRecorder(ctx.parityRows);
  const labels: unknown[] = [];
  let firstBatchMs = 0;
  let warmupSteady = false;
  let stoppedAtMax = false;
  let baselineRss = 0;
  let window: RssWindow = { peakBytes: 0, samples: 0, hz: 0, source: 'sampled' };
  let loopStart = 0;
  let sampling = false;
  try {
    let passComplete = false;
    let decision: 'continue' | 'done' | 'max' = 'continue';
    while (decision === 'continue') {
      let batchesThisPass = 0;
      for await (const rows of ctx.dataset.batches(key.batchSize)) {
        if (!sampling) {
          const inputs = await ctx.prepare(rows);
          const warmStart = performance.now();
          for (;;) {
            const w = await runTimed(session, inputs);
            warmupMs.push(w.endedAt - w.startedAt);
            const state = warmupDone(warmupMs, performance.now() - warmStart, ctx.warmup);
            if (state.done) {
              warmupSteady = state.steady;
              break;
            }
          }
          firstBatchMs = warmupMs[0] ?? 0;
          baselineRss = process.memoryUsage.rss();
          ctx.sampler.begin();
          sampling = true;
          loopStart = performance.now();
        }
        if (ctx.signal?.aborted) {
          window = ctx.sampler.end();
          return { cell: { ...key, state: 'errored', reason: `interrupted (Ctrl-C) after ${runMs.length} measured batches`, session: session.describe() }, outputs: null, labels };
        }
        const t0 = performance.now();
        const inputs = await ctx.prepare(rows);
        // Input wrapping happens before t1 (counted as preparation), output read-back after t2.
        const { startedAt: t1, endedAt: t2, outputs } = await runTimed(session, inputs);
        const forward = session.innerForwardMs?.();
        if (typeof forward === 'number') forwardMs.push(forward);
        prepareMs.push(t1 - t0);
        runMs.push(t2 - t1);
        items.push(rows.length);
        batchesThisPass++;
        if (!passComplete && recorder.rows.length < ctx.parityRows) {
          recorder.add(outputs, rows.length);
          if (ctx.labelColumn) for (const r of rows) labels.push(r[ctx.labelColumn]);
        }
        decision = stopDecision({ elapsedMs: t2 - loopStart, batches: runMs.length, passComplete }, ctx.stop);
        if (decision !== 'continue') break;
      }
      if (batchesThisPass === 0) throw new Error('the dataset yielded no rows for this cell');
      passComplete = true;
      if (decision === 'continue') decision = stopDecision({ elapsedMs: performance.now() - loopStart, batches: runMs.length, passComplete }, ctx.stop);
    }
    stoppedAtMax = decision === 'max';
    window = ctx.sampler.end();
    sampling = false;
  } catch (err) {
    if (sampling) ctx.sampler.end();
    return { cell: { ...failedCell(key, err), ...(err instanceof CellSkip ? {} : { session: session.describe() }) }, outputs: null, labels };
  }
  const itemsTotal = items.reduce((a, b) => a + b, 0);
  const latency = computeStatistics(runMs);
  // Pipeline engines time their raw forward inside each call; kept only when every measured batch has one.
  const hasForward = forwardMs.length === runMs.length && runMs.length > 0;
  const cell: CompletedCell = {
    ...key,
    state: 'completed',
    session: session.describe(),
    loadMs: ctx.loadMs,
    warmupBatches: warmupMs.length,
    samples: { runMs, prepareMs, items, warmupMs, ...(hasForward ? { forwardMs } : {}) },
    latency,
    prepare: computeStatistics(prepareMs),
    ...(hasForward ? { forward: computeStatistics(forwardMs) } : {}),
    totalMs: latency.total,
    itemsTotal,
    samplesPerSecond: throughput(itemsTotal, latency.total),
    peakRssBytes: window.peakBytes,
    verdict: verdictOf(latency, { stoppedAtMax, warmupSteady, rule: ctx.stop, maxCv: ctx.maxCv }),
    memory: {
      baselineRssBytes: baselineRss,
      peakRssBytes: window.peakBytes,
      growthBytes: Math.max(0, window.peakBytes - baselineRss),
      sampleHz: window.hz,
      peakSource: window.source,
      engine: session.memory ? session.memory() : null,
      gpuBytes: gpuMemoryOfProcess(),
    },
    coldStart: { loadMs: ctx.loadMs, firstBatchMs },
  };
  return { cell, outputs: ctx.parityRows > 0 ? recorder.result() : null, labels };
}
