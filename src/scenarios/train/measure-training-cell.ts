/**
 * Measures one training cell: `rounds` rounds of `warmSteps + steps` steps
 * over the same batches, each round restarting from the initial weights and
 * a fresh optimizer, so every round trains the same trajectory and its step
 * times are comparable. Warm steps are timed and logged but left out of the
 * statistics, like run's warm pass.
 */
import type { EngineTrainer } from '../../core/engine.js';
import { describeError, UserError } from '../../core/errors.js';
import { kernelPeakRssBytes, resetKernelPeakRss } from '../../core/kernel-peak-rss.js';
import { betweenRoundsOf, computeStatistics, type SampleStatistics } from '../../core/statistics.js';
import { DEFAULT_MAX_CV, verdictOfRounds } from '../../core/stop-rule.js';
import type { CompletedTrainingCell, ErroredTrainingCell, TrainingCellKey, TrainingStep } from '../../core/training-results.js';
import type { TrainOptimizer } from '../../core/engine.js';
import type { TrainingBatch } from './training-batches.js';

/** What one cell runs. */
export interface TrainingCellPlan {
  readonly key: TrainingCellKey;
  readonly batches: readonly TrainingBatch[];
  readonly warmSteps: number;
  readonly steps: number;
  readonly rounds: number;
  readonly optimizer: TrainOptimizer;
  readonly learningRate: number;
  readonly loadMs: number;
  readonly signal?: AbortSignal;
}

/** Messages of allocation failures: V8 (ArrayBuffer), the wasm heap, libtensorflow, and tfjs's own. */
const OUT_OF_MEMORY = /out of memory|allocation failed|cannot allocate|OOM|Array buffer allocation|Invalid typed array length/i;

/** True when `err` says the engine ran out of memory (so the cell records it and the sweep goes on with the next batch size). */
export function isOutOfMemory(err: unknown): boolean {
  return err instanceof RangeError || OUT_OF_MEMORY.test(describeError(err));
}

function statsOrNull(values: readonly (number | null)[]): SampleStatistics | null {
  return values.length > 0 && values.every((v) => v !== null) ? computeStatistics(values as number[]) : null;
}

/** Runs the plan on a loaded trainer; an error mid-cell becomes an errored cell carrying the losses so far. */
export async function measureTrainingCell(trainer: EngineTrainer, plan: TrainingCellPlan): Promise<CompletedTrainingCell | ErroredTrainingCell> {
  const { key, warmSteps, steps, rounds } = plan;
  const perRound = warmSteps + steps;
  const log: TrainingStep[] = [];
  let scopeWorked = true;
  let roundsDone = 0;
  try {
    for (let round = 0; round < rounds; round++) {
      if (round > 0 && plan.signal?.aborted) break;
      await trainer.reset();
      for (let index = 0; index < perRound; index++) {
        const batch = plan.batches[index % plan.batches.length] as TrainingBatch;
        const before = trainer.memory?.() ?? null;
        scopeWorked = resetKernelPeakRss() && scopeWorked;
        const start = performance.now();
        const result = await trainer.step(batch.inputs, batch.labels);
        const stepMs = performance.now() - start;
        const peakRssBytes = kernelPeakRssBytes();
        log.push({
          round, index, warm: index < warmSteps, stepMs,
          forwardMs: result.forwardMs, backwardMs: result.backwardMs, updateMs: result.updateMs,
          loss: result.loss, peakRssBytes,
          engineMemoryBefore: before, engineMemoryAfter: trainer.memory?.() ?? null,
          engineBytesInStep: result.peakEngineBytes ?? null,
        });
      }
      roundsDone++;
    }
  } catch (err) {
    // Bad input (output not logits over the labels) is the same on every engine: it ends the run with its fix.
    if (err instanceof UserError) throw err;
    const oom = isOutOfMemory(err);
    return {
      ...key,
      state: 'errored',
      reason: `${oom ? 'out of memory: ' : ''}step ${log.length} failed: ${describeError(err)}`,
      ...(oom ? { outOfMemory: true } : {}),
      session: trainer.describe(),
      training: { losses: log.map((s) => s.loss) },
    };
  }
  const measured = log.filter((s) => !s.warm);
  const stepTime = computeStatistics(measured.map((s) => s.stepMs));
  const means = Array.from({ length: roundsDone }, (_, r) => computeStatistics(measured.filter((s) => s.round === r).map((s) => s.stepMs)).mean);
  const betweenRounds = betweenRoundsOf(means);
  const verdict = verdictOfRounds({
    latency: stepTime,
    betweenRounds,
    rule: { minTimeMs: 0, minBatches: steps, maxTimeMs: Number.POSITIVE_INFINITY, maxBatches: Number.POSITIVE_INFINITY },
    maxCv: DEFAULT_MAX_CV,
    roundsPlanned: rounds,
    stoppedAtMax: false,
    partialPass: null,
    warmPassCut: null,
    interrupted: roundsDone < rounds,
    warnings: [],
  });
  const afters = log.map((s) => s.engineMemoryAfter).filter((m): m is NonNullable<typeof m> => m !== null);
  const first = log[0]?.engineMemoryBefore ?? null;
  const losses = log.map((s) => s.loss);
  return {
    ...key,
    state: 'completed',
    session: trainer.describe(),
    loadMs: plan.loadMs,
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
    peakRssScope: scopeWorked ? 'since-reset' : 'process',
    engineBytes: first && afters.length > 0
      ? {
        before: first.numBytes,
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
