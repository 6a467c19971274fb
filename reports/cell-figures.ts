/**
 * The figures of one completed cell, derived once for every report: the
 * unit of work (one pass over the rows), the two scopes (engine and end to
 * end), the one estimator (the mean of round means, which the 95% interval
 * is centred on), whether the cell saw a whole pass at all, and the threads
 * the engine reported using. views.ts builds every table row, scaling point
 * and chart bar from these, so no renderer derives a total, a mean or a
 * ratio of its own.
 *
 * Old records (before rounds, passes or end-to-end timing) still render:
 * what they lack is null, never invented.
 */
import type { CellResult, CompletedCell } from '../src/core/results.js';
import { computeStatistics, type SampleStatistics } from '../src/core/statistics.js';

/** Which work a figure times. */
export type Scope = 'engine' | 'end-to-end';

/** A 95% interval of a mean, and what it was computed across. */
export interface ScopeInterval {
  readonly low: number;
  readonly high: number;
  readonly halfWidth: number;
  /** `rounds`: Student t on round means (what a re-run sees); `batches`: per-batch samples of one run (records before rounds). */
  readonly across: 'rounds' | 'batches';
}

/** One pass over the rows at a cell's batch size. */
export interface PassShape {
  readonly rows: number;
  readonly batches: number;
}

/** Everything one scope of one cell shows, from the round means. */
export interface ScopeFigures {
  readonly scope: Scope;
  /** What is inside the clock on this cell, in words. */
  readonly covers: string;
  /** Mean per batch: the mean of the round means (each round's mean over whole passes). */
  readonly meanMs: number;
  readonly roundMeans: readonly number[];
  /** 95% interval of `meanMs`; null with one round. */
  readonly ci95: ScopeInterval | null;
  /** One pass: `meanMs` × batches of a pass; null when the cell saw no whole pass. */
  readonly passMs: number | null;
  readonly passCi95: ScopeInterval | null;
  /**
   * Rows per second: rows of one pass ÷ `passMs`, which is the mean items
   * per batch ÷ `meanMs` (the form used when an older record lacks the pass
   * length); null for a cell without a whole pass.
   */
  readonly samplesPerSecond: number | null;
  /** Percentiles, min, max, stdev and cv: pooled over every batch of every round. */
  readonly pooled: SampleStatistics;
}

/** A cell's figures: its pass, its scopes, and why it has no whole pass when it has none. */
export interface CellFigures {
  /** Threads the engine reported using (the request when it reported none). */
  readonly threads: number | null;
  readonly pass: PassShape | null;
  /** Why the cell has no per-pass figures ("saw 45 of 256 batches of one pass"); null when it saw whole passes. */
  readonly partial: string | null;
  readonly engine: ScopeFigures;
  /** Null in records from before end-to-end timing (plain engines). */
  readonly endToEnd: ScopeFigures | null;
  /** The item callback (tokenize, collate, wrap) per batch and per pass, from the round means too. */
  readonly prepare: { readonly meanMs: number; readonly passMs: number | null };
}

export const ENGINE_CALL = 'the engine call (inputs in, outputs in host memory)';
export const PIPELINE_FORWARD = "the pipeline's own ONNX forward inside its call";
export const PLAIN_END_TO_END = 'item callback (tokenize, collate, wrap) + engine call + output read-back';
export const PIPELINE_END_TO_END = 'the whole pipeline call (its own tokenization, forward and post-processing)';

/** Whether a completed cell's outputs agreed with the reference; null when not checked. */
export function parityOk(cell: CellResult): boolean | null {
  if (cell.state !== 'completed' || cell.parity === undefined || cell.parity === null) return null;
  return cell.parity.withinTolerance;
}

/** The part of any scenario's cell that says its threads: the request, and the session it read back when it opened. */
export interface ThreadedCell {
  readonly state: string;
  readonly requestedThreads: number | null;
  readonly session?: { readonly threads: number | null };
}

/** Threads the cell ran with: read back from its session when it has one, else what was requested (any scenario's cell). */
export function threadsUsed(cell: ThreadedCell): number | null {
  return cell.state !== 'skipped' && cell.session !== undefined && cell.session.threads !== null ? cell.session.threads : cell.requestedThreads;
}

/** True when the timed call is a whole pipeline (transformers.js) and the raw forward inside it was timed for every batch. */
export function isPipeline(cell: CompletedCell): boolean {
  const forward = cell.samples.forwardMs;
  return forward !== undefined && forward.length > 0 && forward.length === cell.samples.runMs.length;
}

/** Splits pooled samples into the rounds they came from, by each round's batch count; null when the counts do not add up. */
function splitByRounds(pooled: readonly number[], cell: CompletedCell): number[][] | null {
  const rounds = cell.rounds ?? [];
  if (rounds.reduce((n, r) => n + r.runMs.length, 0) !== pooled.length) return null;
  let at = 0;
  return rounds.map((r) => pooled.slice(at, (at += r.runMs.length)));
}

/** Each round's samples of one scope (a record from before rounds is one round); null when the record has none of that scope. */
export function scopeRounds(cell: CompletedCell, scope: Scope | 'prepare'): number[][] | null {
  const rounds = cell.rounds && cell.rounds.length > 0 ? cell.rounds : null;
  if (scope === 'prepare') return rounds ? rounds.map((r) => r.prepareMs) : [cell.samples.prepareMs];
  const pipeline = isPipeline(cell);
  if (scope === 'engine') {
    if (!pipeline) return rounds ? rounds.map((r) => r.runMs) : [cell.samples.runMs];
    const forward = cell.samples.forwardMs as number[];
    if (!rounds) return [forward];
    if (rounds.every((r) => r.forwardMs !== undefined && r.forwardMs.length === r.runMs.length)) return rounds.map((r) => r.forwardMs as number[]);
    return splitByRounds(forward, cell) ?? [forward];
  }
  if (rounds?.every((r) => r.endToEndMs !== undefined && r.endToEndMs.length === r.runMs.length)) return rounds.map((r) => r.endToEndMs as number[]);
  if (!rounds && cell.samples.endToEndMs !== undefined && cell.samples.endToEndMs.length === cell.samples.runMs.length) return [cell.samples.endToEndMs];
  // Records from before end-to-end timing: a pipeline's timed call was already end to end; a plain engine's was not.
  if (pipeline) return rounds ? rounds.map((r) => r.runMs) : [cell.samples.runMs];
  return null;
}

/** The batches and rows of one pass: recorded, else from a round's whole passes, else from an uncut first pass; null when unknown. */
export function passOf(cell: CompletedCell): PassShape | null {
  if (cell.pass) return cell.pass;
  const whole = cell.rounds?.find((r) => r.passes >= 1 && r.runMs.length % r.passes === 0);
  if (whole) return { batches: whole.runMs.length / whole.passes, rows: whole.items.reduce((a, b) => a + b, 0) / whole.passes };
  const cut = cell.verdict?.reasons.some((r) => r.startsWith('warm pass cut')) ?? false;
  if (cell.firstPass && cell.firstPass.batches > 0 && !cut) return { batches: cell.firstPass.batches, rows: cell.firstPass.items };
  return null;
}

/**
 * Why a completed cell has no whole pass, or null when every round timed
 * whole passes over the rows (records from before rounds: one pass at least
 * was always measured).
 */
export function partialPass(cell: CompletedCell): string | null {
  const short = cell.rounds?.find((r) => r.passes < 1);
  if (!short) return null;
  // The verdict knows the length of a pass (from the row count); the round alone only knows what it saw.
  const stated = cell.verdict?.reasons.find((r) => /^saw \d+ of .+ batches of one pass/.test(r));
  if (stated) return stated.replace(/ \(raise --max-time\)$/, '');
  const pass = cell.pass;
  return pass ? `saw ${short.runMs.length} of ${pass.batches} batches of one pass` : `saw ${short.runMs.length} batches, not one whole pass`;
}

/** Mean items per batch over the mean time per batch, in items per second (records without a pass length). */
function itemsPerSecond(cell: CompletedCell, meanMs: number): number | null {
  const items = cell.samples.items;
  if (items.length === 0 || !(meanMs > 0)) return null;
  return (items.reduce((a, b) => a + b, 0) / items.length) * (1000 / meanMs);
}

function scale(interval: ScopeInterval | null, by: number): ScopeInterval | null {
  return interval === null ? null : { low: interval.low * by, high: interval.high * by, halfWidth: interval.halfWidth * by, across: interval.across };
}

/** The figures of one scope from its rounds' samples. */
function scopeFigures(cell: CompletedCell, scope: Scope, covers: string, rounds: readonly (readonly number[])[], pass: PassShape | null, partial: boolean): ScopeFigures {
  // A record with round means but no per-round samples (an early rounds format) keeps its recorded means for the model call.
  const recorded = !cell.rounds && scope === 'engine' && !isPipeline(cell) && cell.betweenRounds && cell.betweenRounds.means.length > 0 ? cell.betweenRounds.means : null;
  const roundMeans = recorded ?? rounds.filter((r) => r.length > 0).map((r) => r.reduce((a, b) => a + b, 0) / r.length);
  const across = computeStatistics(roundMeans);
  const pooled = computeStatistics(rounds.flat());
  // Before rounds the only interval there is was across batches; it is marked so.
  const batchCi = pooled.ci95 ? { ...pooled.ci95, across: 'batches' as const } : null;
  const ci95: ScopeInterval | null = cell.rounds || recorded ? (across.ci95 ? { ...across.ci95, across: 'rounds' } : null) : batchCi;
  const passMs = pass ? across.mean * pass.batches : null;
  return {
    scope,
    covers,
    meanMs: across.mean,
    roundMeans,
    ci95,
    passMs,
    passCi95: pass ? scale(ci95, pass.batches) : null,
    samplesPerSecond: partial ? null : pass && passMs !== null ? (passMs > 0 ? (pass.rows * 1000) / passMs : null) : itemsPerSecond(cell, across.mean),
    pooled,
  };
}

const memo = new WeakMap<CompletedCell, CellFigures>();

/** The cell's figures (computed once per cell object). */
export function cellFigures(cell: CompletedCell): CellFigures {
  const known = memo.get(cell);
  if (known) return known;
  const partial = partialPass(cell);
  const pass = partial === null ? passOf(cell) : null;
  const pipeline = isPipeline(cell);
  const engineRounds = scopeRounds(cell, 'engine') as number[][];
  const e2eRounds = scopeRounds(cell, 'end-to-end');
  const prepareRounds = scopeRounds(cell, 'prepare') as number[][];
  const prepareMean = computeStatistics(prepareRounds.filter((r) => r.length > 0).map((r) => r.reduce((a, b) => a + b, 0) / r.length)).mean;
  const figures: CellFigures = {
    threads: threadsUsed(cell),
    pass,
    partial,
    engine: scopeFigures(cell, 'engine', pipeline ? PIPELINE_FORWARD : ENGINE_CALL, engineRounds, pass, partial !== null),
    endToEnd: e2eRounds === null ? null : scopeFigures(cell, 'end-to-end', pipeline ? PIPELINE_END_TO_END : PLAIN_END_TO_END, e2eRounds, pass, partial !== null),
    prepare: { meanMs: prepareMean, passMs: pass ? prepareMean * pass.batches : null },
  };
  memo.set(cell, figures);
  return figures;
}

/** One scope of a cell; null when the record has none of it. */
export function scopeOf(cell: CompletedCell, scope: Scope): ScopeFigures | null {
  const f = cellFigures(cell);
  return scope === 'engine' ? f.engine : f.endToEnd;
}
