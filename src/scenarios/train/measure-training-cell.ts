/**
 * Measures training cells one round at a time: a round is `warmSteps +
 * steps` steps over the same batches from the initial weights and a fresh
 * optimizer, so every round trains the same trajectory and its step times
 * are comparable. Warm steps are timed and logged but left out of the
 * statistics, like run's warm pass. The sweep interleaves rounds across
 * engines (training-sweep.ts) and assembles each cell from its rounds here.
 */
import type { EngineTrainer } from '../../core/engine.js';
import { describeError, UserError } from '../../core/errors.js';
import { kernelPeakRssBytes, resetKernelPeakRss } from '../../core/kernel-peak-rss.js';
import { hostNoiseWarnings, readHostNoise } from '../../core/host-noise.js';
import type { HostNoise } from '../../core/results.js';
import { betweenRoundsOf, computeStatistics, type SampleStatistics } from '../../core/statistics.js';
import { DEFAULT_MAX_CV, verdictOfRounds } from '../../core/stop-rule.js';
import type { CompletedTrainingCell, ErroredTrainingCell, SkippedTrainingCell, TrainingCellKey, TrainingStep } from './training-results.js';
import type { SessionDescription } from '../../core/engine-session.js';
import type { TrainOptimizer } from '../../core/engine.js';
import type { TrainingBatch } from './training-batches.js';
import { nextTurn } from '../../core/event-loop.js';

/** What one round of one cell runs. */
export interface TrainingRoundPlan {
  readonly key: TrainingCellKey;
  readonly batches: readonly TrainingBatch[];
  readonly warmSteps: number;
  readonly steps: number;
  /** Which round, from 0: its steps are logged with it, and a failure names the step's place in the cell. */
  readonly round: number;
  readonly openMs: number;
  /** Ctrl-C: the round stops after the step in progress, keeping the steps measured so far. */
  readonly signal?: AbortSignal | undefined;
}

/** What the cell as a whole was asked for, to assemble it from its rounds. */
export interface TrainingCellPlan {
  readonly warmSteps: number;
  readonly steps: number;
  readonly rounds: number;
  readonly optimizer: TrainOptimizer;
  readonly learningRate: number;
}

/**
 * One round of one cell, from a fresh open (in this process or a child; it
 * is structured-cloneable): its steps, or the cell's failure with the losses
 * of the round's steps before it, or `interrupted` (Ctrl-C before it began).
 */
export type TrainingRound =
  | {
    readonly kind: 'measured';
    readonly key: TrainingCellKey;
    readonly round: number;
    readonly steps: readonly TrainingStep[];
    readonly session: SessionDescription;
    readonly openMs: number;
    /** The kernel's peak RSS could be reset before every step of the round. */
    readonly rssResetWorked: boolean;
    /** Host load per core and CPU steal read around the round, for the verdict's warnings (as `run`). */
    readonly noise: { readonly before: HostNoise; readonly after: HostNoise };
    /** Ctrl-C stopped the round before its last step: the cell is recorded as interrupted. */
    readonly cut?: boolean;
  }
  | { readonly kind: 'failed'; readonly key: TrainingCellKey; readonly round: number; readonly cell: ErroredTrainingCell | SkippedTrainingCell }
  | { readonly kind: 'interrupted'; readonly key: TrainingCellKey; readonly round: number };

/** Messages of allocation failures: V8 (ArrayBuffer), the wasm heap, libtensorflow, and tfjs's own. */
const OUT_OF_MEMORY = /out of memory|allocation failed|cannot allocate|OOM|Array buffer allocation|Invalid typed array length/i;

/** True when `err` says the engine ran out of memory (so the cell records it and the sweep goes on with the next batch size). */
export function isOutOfMemory(err: unknown): boolean {
  return err instanceof RangeError || OUT_OF_MEMORY.test(describeError(err));
}

function statsOrNull(values: readonly (number | null)[]): SampleStatistics | null {
  return values.length > 0 && values.every((v) => v !== null) ? computeStatistics(values as number[]) : null;
}

/** Runs one round on an opened trainer, from its initial weights; an error becomes the cell's failure, carrying the round's losses so far. */
export async function measureTrainingRound(trainer: EngineTrainer, plan: TrainingRoundPlan): Promise<TrainingRound> {
  const { key, warmSteps, steps, round } = plan;
  const perRound = warmSteps + steps;
  const log: TrainingStep[] = [];
  let rssResetWorked = true;
  let cut = false;
  const before = readHostNoise(null);
  try {
    await trainer.reset();
    for (let index = 0; index < perRound; index++) {
      const batch = plan.batches[index % plan.batches.length] as TrainingBatch;
      const engineBefore = trainer.memory?.() ?? null;
      rssResetWorked = resetKernelPeakRss() && rssResetWorked;
      const start = performance.now();
      const result = await trainer.step(batch.inputs, batch.labels);
      const stepMs = performance.now() - start;
      const peakRssBytes = kernelPeakRssBytes();
      log.push({
        round, index, warm: index < warmSteps, stepMs,
        forwardMs: result.forwardMs, backwardMs: result.backwardMs, updateMs: result.updateMs,
        loss: result.loss, peakRssBytes,
        engineMemoryBefore: engineBefore, engineMemoryAfter: trainer.memory?.() ?? null,
        engineBytesInStep: result.peakEngineBytes ?? null,
      });
      // Let Ctrl-C (relayed over IPC) and the parent lifeline in between steps, untimed: a synchronous engine never yields on its own.
      await nextTurn();
      if (plan.signal?.aborted && index + 1 < perRound) {
        // A round cut before any measured step says nothing about the step time: as if it had not begun.
        if (!log.some((s) => !s.warm)) return { kind: 'interrupted', key, round };
        cut = true;
        break;
      }
    }
  } catch (err) {
    // Bad input (output not logits over the labels) is the same on every engine: it ends the run with its fix.
    if (err instanceof UserError) throw err;
    const oom = isOutOfMemory(err);
    return {
      kind: 'failed',
      key,
      round,
      cell: {
        ...key,
        state: 'errored',
        // Earlier rounds ran every step, so the failed step's place in the cell is round × steps per round + its index.
        reason: `${oom ? 'out of memory: ' : ''}step ${round * perRound + log.length} failed: ${describeError(err)}`,
        ...(oom ? { outOfMemory: true } : {}),
        session: trainer.describe(),
        training: { losses: log.map((s) => s.loss) },
      },
    };
  }
  const noise = { before: before.noise, after: readHostNoise(before.cpu).noise };
  return { kind: 'measured', key, round, steps: log, session: trainer.describe(), openMs: plan.openMs, rssResetWorked, noise, ...(cut ? { cut } : {}) };
}

/** The errored cell of a round's failure, its losses preceded by those of the rounds before it. */
export function failedTrainingCell(earlier: readonly TrainingRound[], failure: ErroredTrainingCell | SkippedTrainingCell): ErroredTrainingCell | SkippedTrainingCell {
  if (failure.state === 'skipped') return failure;
  const before = earlier.flatMap((r) => (r.kind === 'measured' ? r.steps.map((s) => s.loss) : []));
  return { ...failure, training: { losses: [...before, ...(failure.training?.losses ?? [])] } };
}

/**
 * A completed cell from its measured rounds (in round order): statistics of
 * the measured steps of every round, the 95 % CI across round means, and a
 * verdict by `run`'s rule; fewer rounds than planned (Ctrl-C) is `interrupted`.
 */
export function assembleTrainingCell(rounds: readonly Extract<TrainingRound, { kind: 'measured' }>[], plan: TrainingCellPlan): CompletedTrainingCell {
  const first = rounds[0];
  if (first === undefined) throw new RangeError('a training cell needs at least one measured round');
  const { warmSteps, steps } = plan;
  const key = first.key;
  const perRound = warmSteps + steps;
  const log = rounds.flatMap((r) => r.steps);
  const roundsDone = rounds.length;
  // Fewer rounds than planned, or a round Ctrl-C cut short: interrupted, as run records a cell Ctrl-C cut.
  const interrupted = roundsDone < plan.rounds || rounds.some((r) => r.cut === true);
  const measured = log.filter((s) => !s.warm);
  const stepTime = computeStatistics(measured.map((s) => s.stepMs));
  const means = rounds.map((r) => computeStatistics(r.steps.filter((s) => !s.warm).map((s) => s.stepMs)).mean);
  const betweenRounds = betweenRoundsOf(means);
  const verdict = verdictOfRounds({
    latency: stepTime,
    betweenRounds,
    rule: { minTimeMs: 0, minBatches: steps, maxTimeMs: Number.POSITIVE_INFINITY, maxBatches: Number.POSITIVE_INFINITY },
    maxCv: DEFAULT_MAX_CV,
    roundsPlanned: plan.rounds,
    stoppedAtMax: false,
    partialPass: null,
    warmPassCut: null,
    interrupted,
    warnings: hostNoiseWarnings(rounds.map((r) => ({ index: r.round, noise: r.noise }))),
  });
  const afters = log.map((s) => s.engineMemoryAfter).filter((m): m is NonNullable<typeof m> => m !== null);
  const before = log[0]?.engineMemoryBefore ?? null;
  const losses = log.map((s) => s.loss);
  return {
    ...key,
    state: 'completed',
    ...(interrupted ? { interrupted } : {}),
    session: first.session,
    // Every round is a fresh open; the first is the cold one, as run's cold start.
    openMs: first.openMs,
    warmSteps,
    steps,
    rounds: roundsDone,
    stepLog: log,
    stepTime,
    forwardTime: statsOrNull(measured.map((s) => s.forwardMs)),
    backwardTime: statsOrNull(measured.map((s) => s.backwardMs)),
    updateTime: statsOrNull(measured.map((s) => s.updateMs)),
    betweenRounds,
    verdict,
    samplesPerSecond: stepTime.total > 0 ? (key.batchSize * measured.length * 1000) / stepTime.total : 0,
    peakRssBytes: Math.max(...log.map((s) => s.peakRssBytes)),
    peakRssScope: rounds.every((r) => r.rssResetWorked) ? 'since-reset' : 'process',
    engineBytes: before && afters.length > 0
      ? {
        before: before.numBytes,
        after: (afters[afters.length - 1] as { numBytes: number }).numBytes,
        peak: Math.max(...afters.map((m) => m.numBytes), ...log.map((s) => s.engineBytesInStep ?? 0)),
      }
      : null,
    training: {
      optimizer: plan.optimizer,
      learningRate: plan.learningRate,
      losses,
      stepsPerRound: perRound,
      firstLoss: losses[0] as number,
      lastLoss: losses[Math.min(perRound, losses.length) - 1] as number,
    },
  };
}
