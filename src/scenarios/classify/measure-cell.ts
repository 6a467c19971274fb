import { CellSkip, cellFailure, describeError } from '../../core/errors.js';
import { readHostNoise, type CpuTimes } from '../../core/host-noise.js';
import { AccuracyTally, OutputRecorder, type AccuracyCount, type RowOutputs } from '../../core/parity.js';
import type { CellEnergy, CellKey, CellMemory, CellRound, ColdStart, ErroredCell, OpenPhases, RowFingerprint, SkippedCell } from '../../core/results.js';
import type { RssSampler, RssWindow } from '../rss-sampler.js';
import { readyCall, runTimed, type EngineSession, type ReadyCall, type ResidentMemoryProbe, type SessionDescription } from '../../core/engine-session.js';
import { passDecision, type StopRule } from '../../core/stop-rule.js';
import type { TensorMap } from '../../core/tensor.js';
import type { Dataset, DataRow } from '../../../datasets/dataset.js';
import { gpuMemoryOfProcess } from '../../core/gpu.js';
import { HardwareMeter } from '../hardware-meter.js';
import { StsTally, type StsFigure } from '../../core/sts-score.js';
import { unattributedProfile, type CellProfile } from '../../core/op-profile.js';
import { profilePass } from './profile-pass.js';

/** Batches of a pass prepared ahead of timing them, at most (see the timed loop). */
const PRELOADED_BATCHES = 256;

/** Input preparation for one batch; the model's or the user's callback. */
export type Prepare = (rows: readonly DataRow[]) => TensorMap | Promise<TensorMap>;

/** Everything one round's measurement needs besides the session. */
export interface MeasureContext {
  readonly dataset: Dataset;
  readonly prepare: Prepare;
  /** This round's share of the cell's stop rule (`perRoundRule`); its maximum time covers the warm pass (at most half of it) and the timed passes. */
  readonly stop: StopRule;
  /** Untimed batches at least: the warm pass always covers every row once, then cycles rows untimed up to this count. */
  readonly warmupBatches: number;
  readonly sampler: RssSampler;
  readonly openMs: number;
  /** Label column to collect for accuracy; null when the dataset has none. */
  readonly labelColumn: string | null;
  /** Gold-score column of an STS pairs dataset, for the Spearman figure; null or absent otherwise. */
  readonly stsScoreColumn?: string | null;
  /** Rows of the warm pass whose outputs are kept for parity (0 keeps none). */
  readonly parityRows: number;
  readonly signal: AbortSignal | undefined;
  /** Position of this round in the cell's rounds, from 0. */
  readonly round: number;
  /** CPU counters read before the engine opened, so the first "before" reading has a steal share too. */
  readonly noiseBase: CpuTimes | null;
  /** Batch sizes measured earlier on this open: empty when this one is the first after it, so its first batch is cold. */
  readonly measuredBefore: readonly number[];
  /** The open's parts as the engine timed them; null when it did not. */
  readonly phases: OpenPhases | null;
  /** How the launcher ran this open. */
  readonly isolation: 'isolated' | 'in-process';
  /** The rows this cell streams (count and content hash); null when not computed (a reference pass). */
  readonly rowSet: RowFingerprint | null;
  /**
   * `run --profile`: after this round's timed loop, one untimed profiled pass
   * (profile-pass.ts): `always` in the cell's last planned round, `if-partial`
   * in an earlier one (a round that saw no whole pass is its cell's last). Absent: none.
   */
  readonly profile?: 'always' | 'if-partial';
}

/** One round's figures, as the parent needs them to assemble the cell. */
export interface RoundFigures {
  readonly round: CellRound;
  readonly session: SessionDescription;
  /** Engine time of each untimed batch: the warm pass, then any extra warmup batches. */
  readonly warmupMs: number[];
  /** Raw forward time per timed batch, for pipeline engines; empty otherwise. */
  readonly forwardMs: number[];
  readonly firstBatchMs: number;
  readonly firstPass: { readonly ms: number; readonly batches: number; readonly items: number };
  /** Batches in one whole pass over the rows at this batch size (known once the warm pass finished, else a lower bound). */
  readonly batchesPerPass: number;
  /** False when the warm pass was cut, so `batchesPerPass` is only a lower bound. */
  readonly batchesPerPassKnown: boolean;
  /** No timed pass was finished: the samples cover only the first batches of one pass. */
  readonly partialPass: boolean;
  /** The warm pass was cut at the maximum time, so later batches' shapes were never seen before timing. */
  readonly warmPassCut: boolean;
  /** The round ended because another pass would overrun the maximum. */
  readonly stoppedAtMax: boolean;
  /** Ctrl-C stopped this round after some timed batches; they are kept. */
  readonly interrupted: boolean;
  readonly memory: CellMemory;
  /** Energy over the timed loop, CPU (RAPL) and GPU (board power), or why the hardware gave none. */
  readonly energy?: CellEnergy;
  /** Predictions against labels over the rows the warm pass saw; `complete` when it saw every row of a pass. */
  readonly accuracy: AccuracyCount & { readonly complete: boolean };
  /** STS Spearman over the pairs the warm pass saw (null without STS pairs); `complete` when it saw every pair of a pass. */
  readonly sts?: (StsFigure & { readonly complete: boolean }) | null;
  readonly rowSet: RowFingerprint | null;
  /** The profiled pass run after this round's timed loop (`run --profile`, last round only). */
  readonly profile?: CellProfile;
}

/** What one round of one cell produced: figures, a failure, or nothing because Ctrl-C came before any timed batch. */
export type MeasuredRound =
  | { readonly kind: 'measured'; readonly key: CellKey; readonly figures: RoundFigures; readonly outputs: RowOutputs | null }
  | { readonly kind: 'failed'; readonly key: CellKey; readonly cell: ErroredCell | SkippedCell }
  | { readonly kind: 'interrupted'; readonly key: CellKey };

/** A cell that could not run: skipped when the engine cannot serve it, errored otherwise. */
export function failedCell(key: CellKey, err: unknown): ErroredCell | SkippedCell {
  return { ...key, ...cellFailure(err) };
}

/** A failed round as the launchers hand it on. */
export function failedRound(key: CellKey, err: unknown, session?: SessionDescription): MeasuredRound {
  const cell = failedCell(key, err);
  return { kind: 'failed', key, cell: cell.state === 'errored' && session ? { ...cell, session } : cell };
}

/**
 * What the warm pass keeps: outputs of its first rows for parity (up to the
 * parity row cap), and an accuracy count over every row it sees, so every
 * engine's accuracy is over the same rows: one whole pass.
 */
class FirstPassKeeper {
  readonly recorder: OutputRecorder;
  readonly accuracy = new AccuracyTally();
  readonly sts: StsTally | null;
  constructor(private readonly ctx: MeasureContext) {
    this.recorder = new OutputRecorder(ctx.parityRows);
    this.sts = ctx.stsScoreColumn ? new StsTally(ctx.stsScoreColumn) : null;
  }
  add(outputs: TensorMap, rows: readonly DataRow[]): void {
    this.sts?.add(outputs, rows);
    const label = this.ctx.labelColumn;
    this.accuracy.add(outputs, label ? rows.map((r) => r[label]) : rows.map(() => null));
    if (this.recorder.rows.length < this.ctx.parityRows) this.recorder.add(outputs, rows.length);
  }
}

/**
 * Runs every row once at the key's batch size, untimed for the statistics,
 * keeping outputs and labels for parity; stops early past `capMs`.
 */
async function warmPass(key: CellKey, session: EngineSession, ctx: MeasureContext, keeper: FirstPassKeeper, capMs: number) {
  const start = performance.now();
  const ms: number[] = [];
  let passItems = 0;
  let warmPassCut = false;
  for await (const rows of ctx.dataset.batches(key.batchSize)) {
    if (ctx.signal?.aborted) return 'interrupted' as const;
    // Checked before a batch, not after, so a pass whose last batch ends past the cap still counts as whole.
    if (ms.length > 0 && performance.now() - start >= capMs) {
      warmPassCut = true;
      break;
    }
    const inputs = await ctx.prepare(rows);
    const { startedAt, endedAt, outputs } = await runTimed(session, inputs);
    ms.push(endedAt - startedAt);
    keeper.add(outputs, rows);
    passItems += rows.length;
  }
  return { ms, passBatches: ms.length, passItems, warmPassCut };
}

/**
 * The reference engine's outputs and labels over the rows at one batch size:
 * a warm pass alone, for when the reference engine is not in the sweep.
 */
export async function referencePass(key: CellKey, session: EngineSession, ctx: MeasureContext): Promise<{ outputs: RowOutputs } | null> {
  const keeper = new FirstPassKeeper(ctx);
  const warm = await warmPass(key, session, ctx, keeper, Infinity);
  return warm === 'interrupted' ? null : { outputs: keeper.recorder.result() };
}

/**
 * Measures one round of one cell on an opened session. First an untimed warm
 * pass over every row at this batch size, so every padded shape has been seen
 * (allocation plans, recorded graphs, engine builds) before timing; its
 * outputs feed parity. Then whole timed passes until the round's minimums
 * hold, ending at a pass boundary. Per batch, the item callback and the
 * engine call are timed apart; RSS is sampled by a worker thread during the
 * timed passes. Ctrl-C keeps the timed batches measured so far.
 */
export async function measureRound(key: CellKey, session: EngineSession, ctx: MeasureContext): Promise<MeasuredRound> {
  const before = readHostNoise(ctx.noiseBase);
  const keeper = new FirstPassKeeper(ctx);
  const warmupMs: number[] = [];
  const runMs: number[] = [];
  const prepareMs: number[] = [];
  const items: number[] = [];
  const forwardMs: number[] = [];
  const endToEndMs: number[] = [];
  let sampling = false;
  let meter: HardwareMeter | null = null;
  try {
    // The warm pass: every row once, untimed for the statistics. It may use half the round's time;
    // the round's whole time (warm pass included) is its share of --max-time.
    const roundStart = performance.now();
    const warm = await warmPass(key, session, ctx, keeper, ctx.stop.maxTimeMs / 2);
    if (warm === 'interrupted') return { kind: 'interrupted', key };
    const { passBatches, passItems, warmPassCut } = warm;
    warmupMs.push(...warm.ms);
    if (passBatches === 0) throw new Error('the dataset yielded no rows for this cell');
    const firstPassMs = warmupMs.reduce((a, b) => a + b, 0);
    // Extra untimed batches when --warmup asks for more than one pass holds (e.g. batch 32 over 64 rows).
    while (!warmPassCut && warmupMs.length < ctx.warmupBatches) {
      for await (const rows of ctx.dataset.batches(key.batchSize)) {
        if (warmupMs.length >= ctx.warmupBatches || ctx.signal?.aborted) break;
        const inputs = await ctx.prepare(rows);
        const w = await runTimed(session, inputs);
        warmupMs.push(w.endedAt - w.startedAt);
      }
      if (ctx.signal?.aborted) return { kind: 'interrupted', key };
    }

    // Outside the clock: a session whose model runs in another process (a browser renderer) brackets that process.
    const foreign = session.residentMemory;
    if (foreign) await foreign.begin();
    // Started before the loop's clock: it waits for a first power reading so the window is covered.
    meter = await HardwareMeter.start();
    const baselineRss = process.memoryUsage.rss();
    ctx.sampler.begin();
    sampling = true;
    const loopStart = performance.now();
    const timed: StopRule = { ...ctx.stop, maxTimeMs: Math.max(0, ctx.stop.maxTimeMs - (loopStart - roundStart)) };
    let passes = 0;
    let stoppedAtMax = false;
    let interrupted = false;
    let partialPass = false;
    measuring: for (;;) {
      const passStart = runMs.length;
      const batches = ctx.dataset.batches(key.batchSize)[Symbol.asyncIterator]();
      try {
        let exhausted = false;
        while (!exhausted) {
          // A chunk of the pass is tokenized and wrapped before any of it is timed, as MLPerf LoadGen loads its
          // query samples before the timed run: preparing a batch between two engine calls disturbs caches and
          // the GC, which a bare run() loop does not pay. Chunks bound the memory on datasets streamed whole.
          const chunk: { readonly rows: number; readonly prepareMs: number; readonly call: ReadyCall }[] = [];
          while (chunk.length < PRELOADED_BATCHES) {
            const next = await batches.next();
            if (next.done === true) {
              exhausted = true;
              break;
            }
            const t0 = performance.now();
            const call = readyCall(session, await ctx.prepare(next.value));
            chunk.push({ rows: next.value.length, prepareMs: performance.now() - t0, call });
          }
          for (const batch of chunk) {
            if (ctx.signal?.aborted) {
              interrupted = true;
              partialPass = passes === 0;
              break measuring;
            }
            // Checked before a batch, so a pass whose last batch ends past the maximum still counts as whole.
            if (runMs.length > 0 && performance.now() - loopStart >= timed.maxTimeMs) {
              stoppedAtMax = true;
              if (passes === 0) {
                // Not even one pass fits: keep what was seen; the verdict says how much of the pass it was.
                partialPass = true;
              } else {
                // Drop the unfinished pass so every row keeps the same weight in the mean.
                for (const a of [runMs, prepareMs, items, endToEndMs]) a.length = passStart;
                forwardMs.length = Math.min(forwardMs.length, passStart);
              }
              break measuring;
            }
            // Input wrapping happened in readyCall (counted as preparation); output read-back comes after endedAt.
            const { startedAt, endedAt, readBackMs } = await batch.call.run();
            const forward = session.innerForwardMs?.();
            if (typeof forward === 'number') forwardMs.push(forward);
            prepareMs.push(batch.prepareMs);
            runMs.push(endedAt - startedAt);
            // End to end: a pipeline's call tokenizes and post-processes itself; a plain engine needs the item callback before it.
            endToEndMs.push(endedAt - startedAt + readBackMs + (typeof forward === 'number' ? 0 : batch.prepareMs));
            items.push(batch.rows);
          }
        }
      } finally {
        await batches.return?.();
      }
      passes++;
      const decision = passDecision({ elapsedMs: performance.now() - loopStart, batches: runMs.length, passes }, timed);
      if (decision === 'continue') continue;
      stoppedAtMax = decision === 'max';
      break;
    }
    const window = ctx.sampler.end();
    sampling = false;
    const hardware = await meter.stop(items.reduce((a, b) => a + b, 0));
    meter = null;
    const rss = await rssFigures(window, baselineRss, foreign);
    if (runMs.length === 0) return { kind: 'interrupted', key };
    const after = readHostNoise(before.cpu);
    // After every timed figure is read: the profiled pass never touches the statistics.
    const profileNow = ctx.profile === 'always' || (ctx.profile === 'if-partial' && partialPass);
    const profile = profileNow && !interrupted ? await profileOf(key, session, ctx) : undefined;
    const meanMs = runMs.reduce((a, b) => a + b, 0) / runMs.length;
    const coldStart: ColdStart = {
      openMs: ctx.openMs,
      firstBatchMs: warmupMs[0] ?? 0,
      afterOpen: ctx.measuredBefore.length === 0,
      measuredBefore: ctx.measuredBefore,
      ...(ctx.phases ? { phases: ctx.phases } : {}),
    };
    const pipeline = forwardMs.length === runMs.length;
    return {
      kind: 'measured',
      key,
      figures: {
        round: {
          index: ctx.round,
          runMs,
          prepareMs,
          items,
          passes,
          meanMs,
          openMs: ctx.openMs,
          firstPassMs,
          noise: { before: before.noise, after: after.noise },
          ...(pipeline ? { forwardMs } : {}),
          endToEndMs,
          coldStart,
        },
        session: session.describe(),
        warmupMs,
        forwardMs,
        firstBatchMs: warmupMs[0] ?? 0,
        firstPass: { ms: firstPassMs, batches: passBatches, items: passItems },
        batchesPerPass: warmPassCut ? Math.max(passBatches, runMs.length) : passBatches,
        batchesPerPassKnown: !warmPassCut,
        partialPass,
        warmPassCut,
        stoppedAtMax,
        interrupted,
        memory: {
          ...rss,
          engine: session.memory ? session.memory() : null,
          gpuBytes: gpuMemoryOfProcess(),
          gpu: hardware.gpuMemory,
          isolation: ctx.isolation,
          ranBefore: ctx.measuredBefore,
        },
        energy: { gpu: hardware.gpuEnergy, cpu: hardware.cpuEnergy },
        accuracy: { ...keeper.accuracy.count(), complete: !warmPassCut },
        sts: stsOf(keeper, !warmPassCut),
        rowSet: ctx.rowSet,
        ...(profile ? { profile } : {}),
      },
      outputs: ctx.parityRows > 0 ? keeper.recorder.result() : null,
    };
  } catch (err) {
    if (sampling) ctx.sampler.end();
    meter?.abort();
    return failedRound(key, err, err instanceof CellSkip ? undefined : session.describe());
  }
}

/** The profiled pass, or an unattributed profile saying why it could not run; a profile never fails its cell. */
async function profileOf(key: CellKey, session: EngineSession, ctx: MeasureContext): Promise<CellProfile> {
  try {
    return await profilePass(key, session, ctx);
  } catch (err) {
    return unattributedProfile('none', `the profiled pass failed: ${describeError(err)}`, []);
  }
}

function stsOf(keeper: FirstPassKeeper, complete: boolean): (StsFigure & { complete: boolean }) | null {
  const figure = keeper.sts?.figure() ?? null;
  return figure === null ? null : { ...figure, complete };
}

/** The timed loop's RSS figures: this process's, or those of the process the model ran in, saying whose. */
async function rssFigures(
  window: RssWindow,
  baselineRss: number,
  foreign: ResidentMemoryProbe | undefined,
): Promise<Pick<CellMemory, 'baselineRssBytes' | 'peakRssBytes' | 'growthBytes' | 'sampleHz' | 'peakSource' | 'process'>> {
  const own = { baselineRssBytes: baselineRss, peakRssBytes: window.peakBytes, growthBytes: Math.max(0, window.peakBytes - baselineRss), sampleHz: window.hz, peakSource: window.source };
  if (!foreign) return own;
  const other = await foreign.end();
  if ('unavailable' in other) return { ...own, process: { label: 'Node driver only', detail: other.unavailable } };
  return {
    baselineRssBytes: other.baselineRssBytes,
    peakRssBytes: other.peakRssBytes,
    growthBytes: Math.max(0, other.peakRssBytes - other.baselineRssBytes),
    sampleHz: 0,
    peakSource: 'kernel',
    process: { label: other.label, detail: other.process },
  };
}
