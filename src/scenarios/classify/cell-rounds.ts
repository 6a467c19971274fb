/**
 * Bookkeeping of a sweep measured in interleaved rounds: which rounds each
 * cell has, whether it still needs more, and its final record once it has
 * them all (or once Ctrl-C ended the sweep). Cells are handed on in the
 * sweep's own order, so results files read the same however rounds rotate.
 */
import type { RowOutputs } from '../../core/parity.js';
import type { CellKey, CellResult, ErroredCell, SkippedCell } from '../../core/results.js';
import type { StopRule } from '../../core/stop-rule.js';
import type { MeasuredRound, RoundFigures } from './measure-cell.js';
import { notRunInterrupted } from './open-group.js';
import { assembleCell } from './round-cell.js';

/** Everything known about one cell so far. */
interface CellState {
  readonly key: CellKey;
  readonly figures: RoundFigures[];
  failure: ErroredCell | SkippedCell | null;
  /** Warm-pass outputs for parity: the first round's, or a later round's that saw more rows (a first warm pass cut short on a busy machine). */
  first: { readonly outputs: RowOutputs | null } | null;
  /** Ctrl-C stopped a round of this cell before any timed batch. */
  interrupted: boolean;
  recorded: boolean;
}

const id = (k: CellKey) => `${k.engine}\u0000${k.requestedThreads}\u0000${k.batchSize}`;

export class CellRounds {
  private readonly states = new Map<string, CellState>();
  private readonly order: CellKey[];

  /** `keys` in the order cells are to be recorded; `judge` is the whole cell's rule and CV threshold for the verdict. */
  constructor(
    keys: readonly CellKey[],
    private readonly roundsPlanned: number,
    private readonly judge: { readonly rule: StopRule; readonly maxCv: number; readonly rows: number },
  ) {
    this.order = [...keys];
    for (const key of keys) this.states.set(id(key), { key, figures: [], failure: null, first: null, interrupted: false, recorded: false });
  }

  private state(key: CellKey): CellState {
    const s = this.states.get(id(key));
    if (!s) throw new RangeError(`no cell ${key.engine} batch ${key.batchSize} in this sweep`);
    return s;
  }

  /** Records a cell that will not run (e.g. a batch size larger than the rows). */
  fail(key: CellKey, cell: ErroredCell | SkippedCell): void {
    this.state(key).failure ??= cell;
  }

  /** Whether `key` should run round `round`: not failed, every earlier round measured, and its first round saw a whole pass. */
  wants(key: CellKey, round: number): boolean {
    const s = this.state(key);
    if (s.failure || s.interrupted || s.figures.length !== round) return false;
    // A cell whose round could not finish one timed pass would only repeat the same partial pass; one round says so.
    return !s.figures.some((f) => f.partialPass);
  }

  /** Adds one round's outcome. */
  add(measured: MeasuredRound): void {
    const s = this.state(measured.key);
    if (measured.kind === 'failed') {
      const n = s.figures.length;
      s.failure ??= n === 0 || measured.cell.state === 'skipped' ? measured.cell : { ...measured.cell, reason: `round ${n + 1} of ${this.roundsPlanned}: ${measured.cell.reason}` };
      return;
    }
    if (measured.kind === 'interrupted') {
      s.interrupted = true;
      return;
    }
    const rows = (o: RowOutputs | null | undefined): number => o?.rows.length ?? -1;
    if (s.figures.length === 0 || rows(measured.outputs) > rows(s.first?.outputs)) s.first = { outputs: measured.outputs };
    s.figures.push(measured.figures);
  }

  /** A cell's warm-pass outputs kept for parity (see `first`), or why there are none. */
  firstOutputs(key: CellKey): { readonly outputs: RowOutputs } | { readonly missing: string } {
    const s = this.state(key);
    if (s.first?.outputs) return { outputs: s.first.outputs };
    if (s.failure) return { missing: `${s.failure.state}: ${s.failure.reason}` };
    return { missing: 'not measured (interrupted)' };
  }

  /** A cell is finished when it failed or will run no more rounds. */
  private finished(s: CellState): boolean {
    return s.failure !== null || s.interrupted || s.figures.length === this.roundsPlanned || (s.figures.length > 0 && s.figures.some((f) => f.partialPass));
  }

  /**
   * Cells ready to record, in sweep order: each finished cell whose
   * predecessors are recorded. With `aborted`, every remaining cell counts
   * as finished (interrupted with its rounds so far, or skipped without any).
   */
  takeReady(aborted: boolean): { readonly key: CellKey; readonly cell: CellResult }[] {
    const out: { key: CellKey; cell: CellResult }[] = [];
    for (const key of this.order) {
      const s = this.state(key);
      if (s.recorded) continue;
      if (!aborted && !this.finished(s)) break;
      s.recorded = true;
      out.push({ key, cell: this.resultOf(s, aborted) });
    }
    return out;
  }

  private resultOf(s: CellState, aborted: boolean): CellResult {
    if (s.failure) return s.failure;
    if (s.figures.length === 0) return { ...s.key, state: 'skipped', reason: notRunInterrupted() };
    const interrupted = s.interrupted || (aborted && s.figures.length < this.roundsPlanned && !s.figures.some((f) => f.partialPass));
    return assembleCell(s.key, s.figures, { ...this.judge, roundsPlanned: this.roundsPlanned, interrupted });
  }
}
