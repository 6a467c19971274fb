/**
 * What `inferbench train` records: the training counterpart of RunRecord.
 * One cell is one engine at one batch size (and sequence length); it keeps
 * every step's raw times, memory and loss, so any statistic can be
 * recomputed, and anyone can check the loss, from results.json alone.
 */
import type { BetweenRounds, CellVerdict, RunRecordOf } from '../../core/results.js';
import type { SessionDescription } from '../../core/engine-session.js';
import type { SampleStatistics } from '../../core/statistics.js';
import type { TrainOptimizer } from '../../core/engine.js';

/** Identifies one cell of a training sweep. */
export interface TrainingCellKey {
  readonly model: string;
  readonly engine: string;
  readonly batchSize: number;
  /** Tokens per row when the sweep fixes them (synthetic ids, as `run --sequence-lengths`); null: batches padded to their longest row. */
  readonly sequenceLength: number | null;
  readonly requestedThreads: number | null;
}

/** One training step; times in ms, memory in bytes. */
export interface TrainingStep {
  readonly round: number;
  /** Position in its round, from 0; steps below the cell's warmSteps are warm steps, left out of the statistics. */
  readonly index: number;
  readonly warm: boolean;
  /** The whole step: forward, loss, backward and optimizer update. */
  readonly stepMs: number;
  /** The parts, where the engine times them apart; null otherwise. */
  readonly forwardMs: number | null;
  readonly backwardMs: number | null;
  readonly updateMs: number | null;
  readonly loss: number;
  /** The kernel's peak RSS during this step (reset before it where the OS allows, see peakRssScope). */
  readonly peakRssBytes: number;
  /** The engine's own tensor account (tfjs's tf.memory()) before and after the step; null where the engine keeps none. */
  readonly engineMemoryBefore: { readonly numTensors: number; readonly numBytes: number } | null;
  readonly engineMemoryAfter: { readonly numTensors: number; readonly numBytes: number } | null;
  /** The engine's tensor bytes at the step's fullest point (end of the forward pass, and with the gradients); null where not known. */
  readonly engineBytesInStep: number | null;
}

/** The loss trajectory of a cell, so anyone can check it against another framework. */
export interface TrainingLosses {
  readonly optimizer: TrainOptimizer;
  readonly learningRate: number;
  /** Every step's loss from the first, warm steps included, in the order they ran (round after round; each round restarts from the initial weights). */
  readonly losses: readonly number[];
  /** Steps per round (warm + measured), to split `losses` into rounds. */
  readonly stepsPerRound: number;
  /** First and last loss of the first round. */
  readonly firstLoss: number;
  readonly lastLoss: number;
}

export interface CompletedTrainingCell extends TrainingCellKey {
  readonly state: 'completed';
  /** Ctrl-C cut the cell short (a round stopped mid-way, or rounds missing): its figures are kept, reports show it as `interrupted`, as run's. */
  readonly interrupted?: boolean;
  readonly session: SessionDescription;
  readonly openMs: number;
  readonly warmSteps: number;
  /** Measured steps per round. */
  readonly steps: number;
  readonly rounds: number;
  readonly stepLog: readonly TrainingStep[];
  /** Statistics of the measured (not warm) step times of every round. */
  readonly stepTime: SampleStatistics;
  /** Same for each part, null when the engine does not time it apart. */
  readonly forwardTime: SampleStatistics | null;
  readonly backwardTime: SampleStatistics | null;
  readonly updateTime: SampleStatistics | null;
  /** Mean step time per round, with the 95% CI across rounds. */
  readonly betweenRounds: BetweenRounds;
  readonly verdict: CellVerdict;
  /** batch × measured steps / their total time. */
  readonly samplesPerSecond: number;
  readonly peakRssBytes: number;
  readonly peakRssScope: 'since-reset' | 'process';
  /** Engine tensor bytes before the first step and after the last (null without an engine account), and the most seen during any step. */
  readonly engineBytes: { readonly before: number; readonly after: number; readonly peak: number } | null;
  readonly training: TrainingLosses;
}

export interface ErroredTrainingCell extends TrainingCellKey {
  readonly state: 'errored';
  readonly reason: string;
  /** True when the engine ran out of memory on this batch; the sweep goes on. */
  readonly outOfMemory?: boolean;
  readonly session?: SessionDescription;
  /** Losses of the steps that ran before the failure. */
  readonly training?: { readonly losses: readonly number[] };
}

export interface SkippedTrainingCell extends TrainingCellKey {
  readonly state: 'skipped';
  readonly reason: string;
}

export type TrainingCell = CompletedTrainingCell | ErroredTrainingCell | SkippedTrainingCell;

/** A training cell's state as reports show it: a completed cell that Ctrl-C cut short reads `interrupted`, as in run. */
export function trainingStateShown(cell: TrainingCell): TrainingCell['state'] | 'interrupted' {
  return cell.state === 'completed' && cell.interrupted === true ? 'interrupted' : cell.state;
}

/** Everything one `inferbench train` produced; every report renders from it alone. */
export interface TrainingRunRecord extends RunRecordOf<TrainingCell> {
  readonly kind: 'train';
}
