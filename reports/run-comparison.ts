/**
 * Compares two runs cell by cell. A change is called only when the 95%
 * confidence intervals of the two means do not overlap; otherwise it is "no
 * significant difference", however large the ratio of means looks, because
 * noise that wide could produce it. Pure, so the CLI, the chart and a web
 * dashboard agree on every call.
 */
import type { CellResult, CompletedCell, RunRecord } from '../src/core/results.js';
import { computeStatistics, type SampleStatistics } from '../src/core/statistics.js';
import { orderedCells } from './run-summary.js';
import { describeThreads, parityOk } from './views.js';

/** What B did relative to A: a time ratio is called only when the intervals are apart. */
export type ComparisonCall = 'faster' | 'slower' | 'no significant difference' | 'not compared';

/** One cell present in both runs. */
export interface CellComparison {
  readonly model: string;
  readonly engine: string;
  readonly batchSize: number;
  readonly requestedThreads: number | null;
  readonly sequenceLength: number | null;
  /** `onnx-cpu · 4 threads · batch 8`, the name in tables and the chart. */
  readonly label: string;
  readonly a: CellResult;
  readonly b: CellResult;
  /** Mean latency of B over A (below 1: B is faster); null unless both completed. */
  readonly ratio: number | null;
  readonly call: ComparisonCall;
  /** Why a cell was not compared, or why no interval was available. */
  readonly note: string | null;
  /** Each side's measurement verdict, null when the record has none. */
  readonly verdictA: 'VALID' | 'NOISY' | null;
  readonly verdictB: 'VALID' | 'NOISY' | null;
  /** Each side's output parity (false: wrong answers beyond tolerance), null when not checked. */
  readonly parityA: boolean | null;
  readonly parityB: boolean | null;
}

/** Every cell of A matched with B, plus the cells only one run has. */
export interface RunComparison {
  readonly a: RunRecord;
  readonly b: RunRecord;
  /** Matched cells, in A's report order. */
  readonly cells: readonly CellComparison[];
  readonly onlyInA: readonly CellResult[];
  readonly onlyInB: readonly CellResult[];
}

/** A closed interval, as `SampleStatistics.ci95` holds it. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/** True when two closed intervals share at least one point. */
export function intervalsOverlap(x: Interval, y: Interval): boolean {
  return x.low <= y.high && y.low <= x.high;
}

/**
 * Latency statistics of a completed cell, recomputed from the raw samples
 * when the record predates p95, CV and the confidence interval.
 */
export function latencyOf(cell: CompletedCell): SampleStatistics {
  const l = cell.latency as Partial<SampleStatistics>;
  if (l.ci95 !== undefined && l.cv !== undefined && l.p95 !== undefined) return cell.latency;
  return cell.samples.runMs.length > 0 ? computeStatistics(cell.samples.runMs) : cell.latency;
}

/**
 * Calls B against A from their latency statistics: faster or slower only
 * when the 95% intervals do not overlap. A side with one batch has no
 * interval, so nothing can be called.
 */
export function callDifference(a: SampleStatistics, b: SampleStatistics): { call: ComparisonCall; note: string | null } {
  if (a.ci95 === null || b.ci95 === null) {
    return { call: 'no significant difference', note: 'one side measured a single batch, so it has no confidence interval' };
  }
  if (intervalsOverlap(a.ci95, b.ci95)) return { call: 'no significant difference', note: null };
  return { call: b.ci95.high < a.ci95.low ? 'faster' : 'slower', note: null };
}

function sequenceLengthOf(cell: CellResult): number | null {
  return cell.state === 'completed' ? (cell.sequenceLength ?? null) : null;
}

/** The identity a cell is matched on: model, engine, batch size, requested threads and sequence length. */
export function cellMatchKey(cell: CellResult): string {
  return [cell.model, cell.engine, cell.batchSize, cell.requestedThreads ?? 'default', sequenceLengthOf(cell) ?? ''].join('\u0000');
}

function verdictOf(cell: CellResult): 'VALID' | 'NOISY' | null {
  return cell.state === 'completed' ? (cell.verdict?.status ?? null) : null;
}

function compareCell(a: CellResult, b: CellResult, label: string): CellComparison {
  const base = {
    model: a.model,
    engine: a.engine,
    batchSize: a.batchSize,
    requestedThreads: a.requestedThreads,
    sequenceLength: sequenceLengthOf(a) ?? sequenceLengthOf(b),
    label,
    a,
    b,
    verdictA: verdictOf(a),
    verdictB: verdictOf(b),
    parityA: parityOk(a),
    parityB: parityOk(b),
  };
  if (a.state !== 'completed' || b.state !== 'completed') {
    const sides = [a.state !== 'completed' ? `${a.state} in A` : '', b.state !== 'completed' ? `${b.state} in B` : ''];
    return { ...base, ratio: null, call: 'not compared', note: sides.filter((s) => s !== '').join(', ') };
  }
  const la = latencyOf(a);
  const lb = latencyOf(b);
  return { ...base, ratio: la.mean > 0 ? lb.mean / la.mean : null, ...callDifference(la, lb) };
}

/**
 * Matches the cells of two runs (model, engine, batch size, requested
 * threads, sequence length) and calls each pair. Threads and models are
 * named in labels only when either run has several of them.
 */
export function compareRuns(a: RunRecord, b: RunRecord): RunComparison {
  const bByKey = new Map<string, CellResult>();
  for (const cell of b.cells) if (!bByKey.has(cellMatchKey(cell))) bByKey.set(cellMatchKey(cell), cell);
  const all = [...a.cells, ...b.cells];
  const showThreads = all.some((c) => c.requestedThreads !== null);
  const showModel = new Set(all.map((c) => c.model)).size > 1;
  const label = (c: CellResult): string => {
    const seq = sequenceLengthOf(c);
    return [
      showModel ? c.model : null,
      c.engine,
      showThreads ? describeThreads(c.requestedThreads) : null,
      `batch ${c.batchSize}`,
      seq !== null ? `seq ${seq}` : null,
    ]
      .filter((p) => p !== null)
      .join(' · ');
  };
  const cells: CellComparison[] = [];
  const matched = new Set<string>();
  const onlyInA: CellResult[] = [];
  for (const cell of orderedCells(a)) {
    const key = cellMatchKey(cell);
    const other = bByKey.get(key);
    if (other === undefined || matched.has(key)) {
      if (other === undefined) onlyInA.push(cell);
      continue;
    }
    matched.add(key);
    cells.push(compareCell(cell, other, label(cell)));
  }
  const onlyInB = orderedCells(b).filter((c) => !matched.has(cellMatchKey(c)));
  return { a, b, cells, onlyInA, onlyInB };
}

/** `engines onnx-cpu, tfjs-wasm; batch 1, 8; threads 1, 4`: what a run covered, for "nothing in common" messages. */
export function describeCoverage(run: RunRecord): string {
  const distinct = <T>(values: T[]): T[] => [...new Set(values)];
  const engines = distinct(run.cells.map((c) => c.engine));
  const batches = distinct(run.cells.map((c) => c.batchSize)).sort((x, y) => x - y);
  const threads = distinct(run.cells.map((c) => (c.requestedThreads === null ? 'default' : String(c.requestedThreads))));
  if (run.cells.length === 0) return 'no cells';
  return `engines ${engines.join(', ')}; batch ${batches.join(', ')}; threads ${threads.join(', ')}`;
}

/** `1.61×` for a speed-up or slow-down, always ≥ 1 so "faster" and "slower" read the same way. */
export function ratioText(ratio: number | null): string {
  if (ratio === null || !(ratio > 0)) return '';
  const factor = ratio < 1 ? 1 / ratio : ratio;
  return `${factor.toFixed(2)}×`;
}
