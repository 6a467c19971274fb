/**
 * The scaling and distribution views of a RunRecord: samples/s against
 * threads at a fixed batch size (core scaling), samples/s and p99 against
 * batch size at a fixed thread setting (batch scaling), and every cell's raw
 * per-batch engine times (latency distribution). Every point comes from the
 * cell's figures (cell-figures.ts): engine scope, mean of round means, one
 * pass as the unit; a cell without a whole pass is a gap with its reason,
 * never a point. Re-exported by views.ts.
 */
import type { CellResult, CellVerdict, CompletedCell, RunRecord } from '../src/core/results.js';
import { cellFigures, parityOk, scopeRounds } from './cell-figures.js';
import { batchSizes, engineLabeller, modelOrder, orderedCells, sequenceOf, sessionOf } from './run-summary.js';
import { softwareSuffix } from '../src/core/gpu-adapter.js';

/** One measured point of a scaling curve. */
export interface ScalingPoint {
  /** Threads requested (core scaling) or batch size (batch scaling). */
  readonly x: number;
  /** Threads the engine reported using. */
  readonly threads: number | null;
  /** Rows of one pass per second of engine time per pass (mean of round means). */
  readonly samplesPerSecond: number;
  /** Engine time per batch, mean of round means. */
  readonly meanMs: number;
  /** 95% interval of `samplesPerSecond`, from the log-scale interval of `meanMs` (rows per second is its inverse); null with one round. */
  readonly samplesPerSecondCi95: { readonly low: number; readonly high: number } | null;
  /** Pooled over every batch of every round. */
  readonly p99Ms: number;
  /** samples/s relative to the series' first point (fewest threads, smallest batch). */
  readonly gain: number;
  readonly verdict: CellVerdict['status'] | null;
  readonly parityOk: boolean | null;
}

/** A point the sweep asked for that has no figures, with why: it failed, was skipped, or saw no whole pass. */
export interface ScalingGap {
  readonly x: number;
  readonly state: 'errored' | 'skipped' | 'partial';
  readonly reason: string;
}

/** One curve: an engine (per model, sequence length and host when a run has several). */
export interface ScalingSeries {
  readonly label: string;
  readonly model: string;
  readonly engine: string;
  /** ` · software adapter (SwiftShader)` when the engine ran on one, else empty: part of the curve's name. */
  readonly adapterSuffix: string;
  readonly sequenceLength: number | null;
  readonly host: string | null;
  /** Ascending x. */
  readonly points: readonly ScalingPoint[];
  readonly gaps: readonly ScalingGap[];
}

/** A scaling view: its fixed value, the x values measured, the curves, and why it cannot be drawn when it cannot. */
export interface ScalingView<Fixed> {
  readonly fixed: Fixed;
  /** Distinct x values with at least one point, ascending. */
  readonly xs: readonly number[];
  readonly series: readonly ScalingSeries[];
  /** Null when some curve has 2 points or more; otherwise what is missing and how to get it. */
  readonly insufficient: string | null;
}

/** Every cell's length, skipped and errored ones too: a skipped seq-16 cell belongs to the seq-16 curve, not a curve of its own. */
const sequenceLengthOf = sequenceOf;

/**
 * Names a curve by engine, adding the model, sequence length or host only
 * when the run has several, and never the thread count (an axis or a fixed
 * value here).
 */
export function seriesLabeller(run: RunRecord): (cell: CellResult) => string {
  const multiModel = modelOrder(run).length > 1;
  const multiSeq = new Set(run.cells.map(sequenceLengthOf)).size > 1;
  return (cell) => {
    const seq = sequenceLengthOf(cell);
    const parts = [multiModel ? `${cell.model} ` : '', cell.engine, softwareSuffix(sessionOf(cell)?.adapter), multiSeq && seq !== null ? ` (seq ${seq})` : '', cell.host ? ` @ ${cell.host.name}` : ''];
    return parts.join('');
  };
}

/** A completed cell as a point, or as a gap when it saw no whole pass. */
function pointOrGap(cell: CompletedCell, x: number): { point: Omit<ScalingPoint, 'gain'> } | { gap: ScalingGap } {
  const f = cellFigures(cell);
  if (f.partial !== null || f.engine.samplesPerSecond === null) return { gap: { x, state: 'partial', reason: f.partial ?? 'no rows per second in this record' } };
  const sps = f.engine.samplesPerSecond;
  const ci = f.engine.ci95;
  return {
    point: {
      x,
      threads: f.threads,
      samplesPerSecond: f.engine.samplesPerSecond,
      meanMs: f.engine.meanMs,
      samplesPerSecondCi95: ci === null ? null : { low: (sps * f.engine.meanMs) / ci.high, high: (sps * f.engine.meanMs) / ci.low },
      p99Ms: f.engine.pooled.p99,
      verdict: cell.verdict?.status ?? null,
      parityOk: parityOk(cell),
    },
  };
}

function scalingSeries(run: RunRecord, cells: readonly CellResult[], xOf: (c: CellResult) => number | null): ScalingSeries[] {
  const label = seriesLabeller(run);
  const byLabel = new Map<string, CellResult[]>();
  for (const cell of cells) {
    if (xOf(cell) === null) continue;
    byLabel.set(label(cell), [...(byLabel.get(label(cell)) ?? []), cell]);
  }
  return [...byLabel].map(([name, group]) => {
    const points: Omit<ScalingPoint, 'gain'>[] = [];
    const gaps: ScalingGap[] = [];
    for (const c of group) {
      const x = xOf(c) as number;
      if (c.state !== 'completed') {
        gaps.push({ x, state: c.state, reason: c.reason });
        continue;
      }
      const shaped = pointOrGap(c, x);
      if ('gap' in shaped) gaps.push(shaped.gap);
      else points.push(shaped.point);
    }
    points.sort((a, b) => a.x - b.x);
    const first = points[0]?.samplesPerSecond ?? 0;
    const sample = group[0] as CellResult;
    return {
      label: name,
      model: sample.model,
      engine: sample.engine,
      adapterSuffix: softwareSuffix(sessionOf(sample)?.adapter),
      sequenceLength: sequenceLengthOf(sample),
      host: sample.host?.name ?? null,
      points: points.map((p) => ({ ...p, gain: first > 0 ? p.samplesPerSecond / first : NaN })),
      gaps: gaps.sort((a, b) => a.x - b.x),
    };
  });
}

function distinctSorted(values: Iterable<number>): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

function completedCells(run: RunRecord): CompletedCell[] {
  return orderedCells(run).filter((c): c is CompletedCell => c.state === 'completed');
}

/** Requested thread settings in sweep order (null is the engine default). */
export function threadSettings(run: RunRecord): (number | null)[] {
  const seen: (number | null)[] = [];
  for (const cell of run.cells) if (!seen.includes(cell.requestedThreads)) seen.push(cell.requestedThreads);
  return seen;
}

/** How a thread setting reads in titles: `4 threads`, `1 thread`, `engine-default threads`. */
export function describeThreads(threads: number | null): string {
  return threads === null ? 'engine-default threads' : `${threads} thread${threads === 1 ? '' : 's'}`;
}

/** Core scaling's default fixed batch size: the largest with a completed cell (null when none completed). */
export function defaultCoreScalingBatchSize(run: RunRecord): number | null {
  const sizes = distinctSorted(completedCells(run).map((c) => c.batchSize));
  return sizes[sizes.length - 1] ?? null;
}

/** Batch scaling's default fixed thread setting: the one with the most completed cells, first in sweep order on a tie. */
export function defaultBatchScalingThreads(run: RunRecord): number | null {
  const done = completedCells(run);
  let best: number | null = null;
  let bestCount = -1;
  for (const threads of threadSettings(run)) {
    const count = done.filter((c) => c.requestedThreads === threads).length;
    if (count > bestCount) [best, bestCount] = [threads, count];
  }
  return best;
}

/**
 * samples/s against requested threads at one batch size, one curve per
 * engine. Cells run at the engine default (no requested count) have no place
 * on a thread axis and are left out.
 */
export function coreScalingView(run: RunRecord, opts: { readonly batchSize?: number } = {}): ScalingView<{ batchSize: number | null }> {
  const batchSize = opts.batchSize ?? defaultCoreScalingBatchSize(run);
  const cells = orderedCells(run).filter((c) => c.batchSize === batchSize);
  const series = scalingSeries(run, cells, (c) => c.requestedThreads);
  const xs = distinctSorted(series.flatMap((s) => s.points.map((p) => p.x)));
  let insufficient: string | null = null;
  if (!series.some((s) => s.points.length >= 2)) {
    const counts = threadSettings(run).filter((t) => t !== null);
    const where = batchSize === null ? 'no cell completed' : `at batch ${batchSize}`;
    insufficient =
      counts.length < 2
        ? `core scaling needs 2 or more thread counts; this run measured ${counts.length === 0 ? 'only engine-default threads' : describeThreads(counts[0] ?? null)} (sweep them with --threads 1,2,4)`
        : `core scaling needs one engine completed with whole passes at 2 or more thread counts ${where}; none did`;
  }
  return { fixed: { batchSize }, xs, series, insufficient };
}

/** samples/s and p99 against batch size at one requested thread setting, one curve per engine. */
export function batchScalingView(run: RunRecord, opts: { readonly threads?: number | null } = {}): ScalingView<{ threads: number | null }> {
  const threads = opts.threads === undefined ? defaultBatchScalingThreads(run) : opts.threads;
  const cells = orderedCells(run).filter((c) => c.requestedThreads === threads);
  const series = scalingSeries(run, cells, (c) => c.batchSize);
  const xs = distinctSorted(series.flatMap((s) => s.points.map((p) => p.x)));
  let insufficient: string | null = null;
  if (!series.some((s) => s.points.length >= 2)) {
    insufficient =
      batchSizes(run).length < 2
        ? `batch scaling needs 2 or more batch sizes; this run measured batch ${batchSizes(run).join(', ') || 'none'} (pass e.g. --batch-sizes 1,8,32)`
        : `batch scaling needs one engine completed with whole passes at 2 or more batch sizes with ${describeThreads(threads)}; none did`;
  }
  return { fixed: { threads }, xs, series, insufficient };
}

/** The raw per-batch engine times of one cell, for a box plot. */
export interface LatencyBox {
  readonly label: string;
  readonly model: string;
  readonly engine: string;
  readonly requestedThreads: number | null;
  /** Threads the engine reported using. */
  readonly threads: number | null;
  readonly batchSize: number;
  readonly sequenceLength: number | null;
  /** Engine scope (a pipeline engine's own forward), every batch of every round. */
  readonly samplesMs: readonly number[];
  readonly verdict: CellVerdict['status'] | null;
  /** Why the box covers only part of a pass; null when it covers whole passes. */
  readonly partial: string | null;
}

/** Every completed cell's raw samples, grouped later by batch size because batch sizes differ in scale. */
export interface LatencyDistributionView {
  readonly boxes: readonly LatencyBox[];
  readonly batchSizes: readonly number[];
  readonly insufficient: string | null;
}

/** Box-plot data from the raw samples of every completed cell, labelled as the other reports label engines. */
export function latencyDistributionView(run: RunRecord): LatencyDistributionView {
  const label = engineLabeller(run);
  const multiModel = modelOrder(run).length > 1;
  const boxes = completedCells(run).map((c) => {
    const f = cellFigures(c);
    return {
      label: multiModel ? `${c.model} ${label(c)}` : label(c),
      model: c.model,
      engine: c.engine,
      requestedThreads: c.requestedThreads,
      threads: f.threads,
      batchSize: c.batchSize,
      sequenceLength: sequenceOf(c),
      samplesMs: (scopeRounds(c, 'engine') ?? []).flat(),
      verdict: c.verdict?.status ?? null,
      partial: f.partial,
    };
  });
  const total = boxes.reduce((n, b) => n + b.samplesMs.length, 0);
  return {
    boxes,
    batchSizes: distinctSorted(boxes.map((b) => b.batchSize)),
    insufficient: total < 2 ? `a latency distribution needs 2 or more measured batches; this run has ${total}` : null,
  };
}
