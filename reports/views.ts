/**
 * The dashboard's views of one RunRecord, as plain data: the baseline table,
 * core scaling (samples/s against threads at a fixed batch size), batch
 * scaling (samples/s and p99 against batch size at a fixed thread count) and
 * the latency distribution. Pure functions, so the terminal, the PNG charts
 * and a web dashboard with user-picked fixed values all show the same numbers.
 */
import type { CellMemory, CellParity, CellResult, CellVerdict, CompletedCell, RunRecord } from '../src/core/results.js';
import type { SampleStatistics } from '../src/core/statistics.js';
import { batchSizes, engineLabeller, modelOrder, orderedCells, sessionOf } from './run-summary.js';

/** Every figure of one cell a table row needs; optional record fields become null when absent (old records). */
export interface BaselineRow {
  readonly model: string;
  readonly engine: string;
  /** Engine as the other reports name it (threads added when an engine ran at several settings). */
  readonly label: string;
  readonly requestedThreads: number | null;
  /** Threads the engine reported using; null when unknown or the cell never loaded. */
  readonly threads: number | null;
  readonly batchSize: number;
  readonly sequenceLength: number | null;
  readonly state: CellResult['state'];
  /** Why an errored or skipped cell has no figures. */
  readonly reason: string | null;
  readonly latency: SampleStatistics | null;
  readonly samplesPerSecond: number | null;
  readonly verdict: CellVerdict | null;
  readonly memory: CellMemory | null;
  readonly loadMs: number | null;
  readonly firstBatchMs: number | null;
  /** The untimed warm pass over every row (first round); null in records from before it existed. */
  readonly firstPassMs: number | null;
  /** Rounds the figures come from; null in records from before rounds. */
  readonly rounds: number | null;
  /** The reported 95% CI of the mean: across round means when the record has rounds, else across batches (older records). */
  readonly interval: ReportedInterval | null;
  /** Ctrl-C cut this cell short; its figures are kept but never VALID. */
  readonly interrupted: boolean;
  /** Why parity was not computed, when it should have been. */
  readonly parityUnavailable: string | null;
  readonly warmupBatches: number | null;
  /** Mean of the recorded warmup batches; null when the record kept none. */
  readonly warmupMeanMs: number | null;
  readonly parity: CellParity | null;
  /** false when outputs differ from the reference beyond tolerance; null when not checked. */
  readonly parityOk: boolean | null;
  readonly accuracy: number | null;
}

/** A 95% confidence interval of the mean and what it was computed across. */
export interface ReportedInterval {
  readonly low: number;
  readonly high: number;
  readonly halfWidth: number;
  /** `rounds`: Student t on round means (what a re-run sees); `batches`: per-batch samples of one run (records before rounds). */
  readonly across: 'rounds' | 'batches';
}

/** The interval every report shows for a completed cell: across rounds when it has two or more, else none for one round, else (old records) across batches. */
export function reportedInterval(cell: CompletedCell): ReportedInterval | null {
  if (cell.betweenRounds) return cell.betweenRounds.ci95 ? { ...cell.betweenRounds.ci95, across: 'rounds' } : null;
  return cell.latency.ci95 ? { ...cell.latency.ci95, across: 'batches' } : null;
}

/** Whether a completed cell's outputs agreed with the reference; null when not checked. */
export function parityOk(cell: CellResult): boolean | null {
  if (cell.state !== 'completed' || cell.parity === undefined || cell.parity === null) return null;
  return cell.parity.withinTolerance;
}

/** Completed cells whose outputs differ from the reference beyond tolerance, in report order. */
export function parityFailures(run: RunRecord): CompletedCell[] {
  return orderedCells(run).filter((c): c is CompletedCell => c.state === 'completed' && parityOk(c) === false);
}

function mean(values: readonly number[] | undefined): number | null {
  if (values === undefined || values.length === 0) return null;
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** One row per cell in report order; `threads` keeps only cells run at that requested setting. */
export function baselineRows(run: RunRecord, opts: { readonly threads?: number | null } = {}): BaselineRow[] {
  const label = engineLabeller(run);
  return orderedCells(run)
    .filter((c) => opts.threads === undefined || c.requestedThreads === opts.threads)
    .map((cell): BaselineRow => {
      const done = cell.state === 'completed' ? cell : null;
      return {
        model: cell.model,
        engine: cell.engine,
        label: label(cell),
        requestedThreads: cell.requestedThreads,
        threads: sessionOf(cell)?.threads ?? null,
        batchSize: cell.batchSize,
        sequenceLength: done?.sequenceLength ?? null,
        state: cell.state,
        reason: cell.state === 'completed' ? null : cell.reason,
        latency: done?.latency ?? null,
        samplesPerSecond: done?.samplesPerSecond ?? null,
        verdict: done?.verdict ?? null,
        memory: done?.memory ?? null,
        loadMs: done ? (done.coldStart?.loadMs ?? done.loadMs) : null,
        firstBatchMs: done?.coldStart?.firstBatchMs ?? null,
        firstPassMs: done?.firstPass?.ms ?? null,
        rounds: done?.rounds?.length ?? null,
        interval: done ? reportedInterval(done) : null,
        interrupted: done?.interrupted === true,
        parityUnavailable: done?.parityUnavailable ?? null,
        warmupBatches: done?.warmupBatches ?? null,
        warmupMeanMs: mean(done?.samples.warmupMs),
        parity: done?.parity ?? null,
        parityOk: parityOk(cell),
        accuracy: done?.accuracy ?? null,
      };
    });
}

/** One measured point of a scaling curve. */
export interface ScalingPoint {
  /** Threads (core scaling) or batch size (batch scaling). */
  readonly x: number;
  readonly samplesPerSecond: number;
  readonly meanMs: number;
  readonly p99Ms: number;
  /** samples/s relative to the series' first point (fewest threads, smallest batch). */
  readonly gain: number;
  readonly verdict: CellVerdict['status'] | null;
  readonly parityOk: boolean | null;
}

/** A point the sweep asked for that has no figures, with why. */
export interface ScalingGap {
  readonly x: number;
  readonly state: 'errored' | 'skipped';
  readonly reason: string;
}

/** One curve: an engine (per model and sequence length when a run has several). */
export interface ScalingSeries {
  readonly label: string;
  readonly model: string;
  readonly engine: string;
  readonly sequenceLength: number | null;
  /** Ascending x. */
  readonly points: readonly ScalingPoint[];
  readonly gaps: readonly ScalingGap[];
}

/** A scaling view: its fixed value, the x values measured, the curves, and why it cannot be drawn when it cannot. */
export interface ScalingView<Fixed> {
  readonly fixed: Fixed;
  /** Distinct x values with at least one completed cell, ascending. */
  readonly xs: readonly number[];
  readonly series: readonly ScalingSeries[];
  /** Null when some curve has 2 points or more; otherwise what is missing and how to get it. */
  readonly insufficient: string | null;
}

function sequenceLengthOf(cell: CellResult): number | null {
  return cell.state === 'completed' ? (cell.sequenceLength ?? null) : null;
}

/**
 * Names a curve by engine, adding the model or sequence length only when the
 * run has several, and never the thread count (an axis or a fixed value here).
 */
export function seriesLabeller(run: RunRecord): (cell: CellResult) => string {
  const multiModel = modelOrder(run).length > 1;
  const multiSeq = new Set(run.cells.map(sequenceLengthOf)).size > 1;
  return (cell) => {
    const seq = sequenceLengthOf(cell);
    const parts = [multiModel ? `${cell.model} ` : '', cell.engine, multiSeq && seq !== null ? ` (seq ${seq})` : '', cell.host ? ` @ ${cell.host.name}` : ''];
    return parts.join('');
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
    const completed = group
      .filter((c): c is CompletedCell => c.state === 'completed')
      .sort((a, b) => (xOf(a) as number) - (xOf(b) as number));
    const first = completed[0]?.samplesPerSecond ?? 0;
    const sample = group[0] as CellResult;
    return {
      label: name,
      model: sample.model,
      engine: sample.engine,
      sequenceLength: sequenceLengthOf(completed[0] ?? sample),
      points: completed.map((c) => ({
        x: xOf(c) as number,
        samplesPerSecond: c.samplesPerSecond,
        meanMs: c.latency.mean,
        p99Ms: c.latency.p99,
        gain: first > 0 ? c.samplesPerSecond / first : NaN,
        verdict: c.verdict?.status ?? null,
        parityOk: parityOk(c),
      })),
      gaps: group
        .filter((c): c is Exclude<CellResult, CompletedCell> => c.state !== 'completed')
        .map((c) => ({ x: xOf(c) as number, state: c.state, reason: c.reason }))
        .sort((a, b) => a.x - b.x),
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
        : `core scaling needs one engine completed at 2 or more thread counts ${where}; none did`;
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
        : `batch scaling needs one engine completed at 2 or more batch sizes with ${describeThreads(threads)}; none did`;
  }
  return { fixed: { threads }, xs, series, insufficient };
}

/** The raw per-batch engine times of one cell, for a box plot. */
export interface LatencyBox {
  readonly label: string;
  readonly model: string;
  readonly engine: string;
  readonly requestedThreads: number | null;
  readonly batchSize: number;
  readonly samplesMs: readonly number[];
  readonly verdict: CellVerdict['status'] | null;
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
  const boxes = completedCells(run).map((c) => ({
    label: multiModel ? `${c.model} ${label(c)}` : label(c),
    model: c.model,
    engine: c.engine,
    requestedThreads: c.requestedThreads,
    batchSize: c.batchSize,
    samplesMs: c.samples.runMs,
    verdict: c.verdict?.status ?? null,
  }));
  const total = boxes.reduce((n, b) => n + b.samplesMs.length, 0);
  return {
    boxes,
    batchSizes: distinctSorted(boxes.map((b) => b.batchSize)),
    insufficient: total < 2 ? `a latency distribution needs 2 or more measured batches; this run has ${total}` : null,
  };
}
