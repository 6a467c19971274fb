/**
 * Generation cells measured in interleaved rounds, as `run` and `train`
 * measure theirs: each round is a fresh engine open that warms up and times
 * `runs` calls of every cell. Calls of one open share the machine's state of
 * that minute, so only round means are independent draws: the interval and
 * the verdict are across them, by the same functions `run` uses
 * (`betweenRoundsOf`, `verdictOfRounds`). This file holds the bookkeeping of
 * which rounds each cell has, and the assembly of its record once it has them.
 */
import { hostNoiseWarnings } from '../../core/host-noise.js';
import { notRunInterrupted } from '../../core/results.js';
import { isInterruptedReason } from '../../core/stop-cause.js';
import type { CellVerdict } from '../../core/results.js';
import type { CompletedGenerationCell, GenerationCell, GenerationCellKey, GenerationSample } from './generation-results.js';
import { betweenRoundsOf, computeStatistics, type SampleStatistics } from '../../core/statistics.js';
import { DEFAULT_MAX_CV, verdictOfRounds } from '../../core/stop-rule.js';
import { summarizeGenerationCell } from './generation-summary.js';

const roundOf = (s: GenerationSample): number => s.round ?? 0;

/** Each round's samples, in round order (records from before rounds are one round). */
function samplesByRound(samples: readonly GenerationSample[]): GenerationSample[][] {
  const rounds = new Map<number, GenerationSample[]>();
  for (const s of samples) rounds.set(roundOf(s), [...(rounds.get(roundOf(s)) ?? []), s]);
  return [...rounds.entries()].sort(([a], [b]) => a - b).map(([, v]) => v);
}

/** TTFT and TPOT across rounds: one mean per round (TTFT over its calls, TPOT over every later token of its calls). */
export function generationBetweenRounds(samples: readonly GenerationSample[]): NonNullable<CompletedGenerationCell['betweenRounds']> {
  const rounds = samplesByRound(samples);
  const ttft = betweenRoundsOf(rounds.map((r) => computeStatistics(r.map((s) => s.firstTokenMs)).mean));
  const rest = rounds.map((r) => r.flatMap((s) => s.restTokenMs));
  // A round without a later token has no TPOT, so TPOT has an interval only when every round has one.
  const tpot = rest.every((r) => r.length > 0) ? betweenRoundsOf(rest.map((r) => computeStatistics(r).mean)) : null;
  return { ttft, tpot };
}

/**
 * `run`'s verdict (`verdictOfRounds`) on TTFT and on TPOT: NOISY when either
 * is. A reason both share (one round, Ctrl-C) is given once; one of a single
 * figure (rounds disagree, CV) is prefixed with it. The per-call or
 * per-token spread is judged against run's CV threshold; the stop rule's
 * minimums do not apply, since a cell times a fixed number of calls.
 */
export function generationVerdict(
  figures: { readonly ttft: SampleStatistics; readonly tpot: SampleStatistics | null },
  betweenRounds: NonNullable<CompletedGenerationCell['betweenRounds']>,
  opts: { readonly roundsPlanned: number; readonly interrupted: boolean; readonly warnings?: readonly string[] },
): CellVerdict {
  const judge = (latency: SampleStatistics, rounds: typeof betweenRounds.ttft) =>
    verdictOfRounds({
      latency,
      betweenRounds: rounds,
      rule: { minTimeMs: 0, minBatches: 0, maxTimeMs: Number.POSITIVE_INFINITY, maxBatches: Number.POSITIVE_INFINITY },
      maxCv: DEFAULT_MAX_CV,
      roundsPlanned: opts.roundsPlanned,
      stoppedAtMax: false,
      partialPass: null,
      warmPassCut: null,
      interrupted: opts.interrupted,
      warnings: [],
    }).reasons;
  const ttft = judge(figures.ttft, betweenRounds.ttft);
  const tpot = figures.tpot && betweenRounds.tpot ? judge(figures.tpot, betweenRounds.tpot) : [];
  const reasons = [...new Set([...ttft.map((r) => (tpot.includes(r) ? r : `TTFT ${r}`)), ...tpot.map((r) => (ttft.includes(r) ? r : `TPOT ${r}`))])];
  const warnings = opts.warnings ?? [];
  return { status: reasons.length === 0 ? 'VALID' : 'NOISY', reasons, ...(warnings.length > 0 ? { warnings } : {}) };
}

/** The completed cell of its rounds' cells (each one round, in round order): statistics over every call, interval and verdict across rounds. */
export function assembleGenerationCell(rounds: readonly CompletedGenerationCell[], opts: { readonly roundsPlanned: number; readonly interrupted: boolean }): CompletedGenerationCell {
  const first = rounds[0];
  if (!first) throw new RangeError('a generation cell needs at least one measured round');
  const key: GenerationCellKey = { model: first.model, engine: first.engine, batchSize: first.batchSize, promptLength: first.promptLength, newTokens: first.newTokens, requestedThreads: first.requestedThreads };
  const summary = summarizeGenerationCell(key, rounds.flatMap((r) => r.samples));
  const betweenRounds = generationBetweenRounds(summary.samples);
  const interrupted = opts.interrupted || rounds.length < opts.roundsPlanned;
  const hostNoise = rounds.flatMap((r) => r.hostNoise ?? []);
  // Host noise rides along as warnings, as on run's verdict: when it mattered, the rounds disagree and that decides.
  const warnings = hostNoiseWarnings(hostNoise.map((n) => ({ index: n.round, noise: n })));
  return {
    state: 'completed',
    session: first.session,
    // Every round is a fresh open; the first is the cold one, as run's cold start.
    openMs: first.openMs,
    warmupRuns: first.warmupRuns,
    ...summary,
    betweenRounds,
    verdict: generationVerdict(summary, betweenRounds, { roundsPlanned: opts.roundsPlanned, interrupted, warnings }),
    ...(hostNoise.length > 0 ? { hostNoise } : {}),
    ...(interrupted ? { interrupted: true } : {}),
  };
}

/** A round Ctrl-C stopped: not run at all, or stopped between calls. */
const wasInterrupted = (cell: GenerationCell): boolean => cell.state !== 'completed' && isInterruptedReason(cell.reason);

interface CellState {
  readonly key: GenerationCellKey;
  readonly rounds: CompletedGenerationCell[];
  failure: GenerationCell | null;
  interrupted: boolean;
  recorded: boolean;
}

const id = (k: GenerationCellKey) => `${k.model}\u0000${k.engine}\u0000${k.batchSize}\u0000${k.promptLength}\u0000${k.newTokens}`;

/** Which rounds each cell has; cells are handed on in sweep order, so results files read the same however rounds rotate. */
export class GenerationRounds {
  private readonly states = new Map<string, CellState>();
  private readonly order: GenerationCellKey[];

  constructor(keys: readonly GenerationCellKey[], private readonly roundsPlanned: number) {
    this.order = [...keys];
    for (const key of keys) this.states.set(id(key), { key, rounds: [], failure: null, interrupted: false, recorded: false });
  }

  private state(key: GenerationCellKey): CellState {
    const s = this.states.get(id(key));
    if (!s) throw new RangeError(`no generation cell ${key.engine} batch ${key.batchSize} prompt ${key.promptLength} new ${key.newTokens} in this sweep`);
    return s;
  }

  /** Whether `key` should run round `round`: not failed or interrupted, and every earlier round measured. */
  wants(key: GenerationCellKey, round: number): boolean {
    const s = this.state(key);
    return s.failure === null && !s.interrupted && s.rounds.length === round;
  }

  /** Adds one round's cell; a later round's failure names its round. */
  add(cell: GenerationCell): void {
    const s = this.state(cell);
    if (cell.state === 'completed') {
      s.rounds.push(cell);
      // A round a stop cut short between calls ends the cell there: its calls are kept, marked interrupted.
      if (cell.interrupted === true) s.interrupted = true;
    } else if (s.rounds.length > 0 && wasInterrupted(cell)) s.interrupted = true;
    else s.failure ??= s.rounds.length === 0 || cell.state === 'skipped' ? cell : { ...cell, reason: `round ${s.rounds.length + 1} of ${this.roundsPlanned}: ${cell.reason}` };
  }

  /** Cells ready to record, in sweep order; with `aborted`, every cell left counts as finished. */
  takeReady(aborted: boolean): GenerationCell[] {
    const out: GenerationCell[] = [];
    for (const key of this.order) {
      const s = this.state(key);
      if (s.recorded) continue;
      const finished = s.failure !== null || s.interrupted || s.rounds.length === this.roundsPlanned;
      if (!aborted && !finished) break;
      s.recorded = true;
      if (s.failure) out.push(s.failure);
      else if (s.rounds.length === 0) out.push({ ...key, state: 'skipped', reason: notRunInterrupted() });
      else out.push(assembleGenerationCell(s.rounds, { roundsPlanned: this.roundsPlanned, interrupted: s.interrupted }));
    }
    return out;
  }
}
