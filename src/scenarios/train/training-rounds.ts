/**
 * Bookkeeping of a training sweep measured in interleaved rounds (the
 * training twin of src/runs/cell-rounds.ts): which rounds each cell has,
 * whether it wants the next one, and its record once it has them all, or
 * once Ctrl-C ended the sweep. Cells are handed on in the sweep's own order,
 * so results files read the same however rounds rotate.
 */
import { notRunInterrupted } from '../../core/results.js';
import type { TrainingCell, TrainingCellKey } from './training-results.js';
import { assembleTrainingCell, failedTrainingCell, type TrainingCellPlan, type TrainingRound } from './measure-training-cell.js';

type MeasuredRound = Extract<TrainingRound, { kind: 'measured' }>;

interface TrainingCellState {
  readonly key: TrainingCellKey;
  readonly rounds: MeasuredRound[];
  failure: TrainingCell | null;
  interrupted: boolean;
  recorded: boolean;
}

const id = (k: TrainingCellKey) => `${k.model}\u0000${k.engine}\u0000${k.batchSize}\u0000${k.sequenceLength}`;

export class TrainingRounds {
  private readonly states = new Map<string, TrainingCellState>();
  private readonly order: TrainingCellKey[];

  /** `keys` in the order cells are to be recorded. */
  constructor(keys: readonly TrainingCellKey[], private readonly plan: TrainingCellPlan) {
    this.order = [...keys];
    for (const key of keys) this.states.set(id(key), { key, rounds: [], failure: null, interrupted: false, recorded: false });
  }

  private state(key: TrainingCellKey): TrainingCellState {
    const s = this.states.get(id(key));
    if (!s) throw new RangeError(`no training cell ${key.engine} batch ${key.batchSize} in this sweep`);
    return s;
  }

  /** Whether `key` should run round `round`: not failed or interrupted, and every earlier round measured. */
  wants(key: TrainingCellKey, round: number): boolean {
    const s = this.state(key);
    return s.failure === null && !s.interrupted && s.rounds.length === round;
  }

  /** Adds one round's outcome. */
  add(result: TrainingRound): void {
    const s = this.state(result.key);
    if (result.kind === 'measured') {
      s.rounds.push(result);
      if (result.cut === true) s.interrupted = true;
    }
    else if (result.kind === 'interrupted') s.interrupted = true;
    else s.failure ??= failedTrainingCell(s.rounds, result.cell);
  }

  /**
   * Cells ready to record, in sweep order: each finished cell whose
   * predecessors are recorded. With `aborted`, every remaining cell counts
   * as finished (interrupted with its rounds so far, or skipped without any).
   */
  takeReady(aborted: boolean): TrainingCell[] {
    const out: TrainingCell[] = [];
    for (const key of this.order) {
      const s = this.state(key);
      if (s.recorded) continue;
      const finished = s.failure !== null || s.interrupted || s.rounds.length === this.plan.rounds;
      if (!aborted && !finished) break;
      s.recorded = true;
      if (s.failure) out.push(s.failure);
      else if (s.rounds.length === 0) out.push({ ...key, state: 'skipped', reason: notRunInterrupted() });
      else out.push(assembleTrainingCell(s.rounds, this.plan));
    }
    return out;
  }
}
