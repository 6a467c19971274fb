/**
 * Terminal tables of the dashboard views: latency statistics with the
 * confidence interval and verdict, core and batch scaling, memory detail,
 * cold start and output parity. Each reads the pure views in views.ts, so
 * the numbers match the charts and a web dashboard exactly.
 */
import type { CellResult, RunRecord } from '../src/core/results.js';
import { engineLabeller } from './run-summary.js';
import { type Column, paint, renderTable, type Style, type TableCell, type TableRow, wrap } from './text-table.js';
import { formatBytes, formatDifference, formatDuration, formatDurationRange, formatPercent, formatRate, formatRatio } from '../src/core/units.js';
import {
  type BaselineRow,
  baselineRows,
  batchScalingView,
  coreScalingView,
  describeThreads,
  parityFailures,
  type ScalingPoint,
  type ScalingView,
} from './views.js';

const STATE_STYLE: Record<CellResult['state'], Style> = { completed: 'green', errored: 'red', skipped: 'yellow' };

/** The marker every report puts on a cell whose outputs disagree with the reference. */
export const PARITY_MARKER = '✗ PARITY';

/** A column that can be dropped (lowest `dropOrder` first, 0 never) when the table is too wide. */
interface FitColumn<Row> extends Column {
  readonly dropOrder: number;
  readonly value: (row: Row) => TableCell;
}

interface FitOptions<Row> {
  readonly title: string;
  readonly columns: readonly FitColumn<Row>[];
  readonly rows: readonly Row[];
  /** A group key per row; a dashed rule separates groups. */
  readonly group?: (row: Row) => string;
  /** Text spanning the measurement columns for rows that have none (errored, skipped). */
  readonly rest?: (row: Row) => TableCell | undefined;
  /** Columns kept for rows with `rest`. */
  readonly identityCount?: number;
  readonly width: number;
  readonly minWidth: number;
  readonly color: boolean;
}

/** Renders a table, dropping optional columns until it fits `width`. */
function fittedTable<Row>(o: FitOptions<Row>): string[] {
  let columns = [...o.columns];
  for (;;) {
    const rows: TableRow[] = o.rows.map((row, i) => {
      const previous = o.rows[i - 1];
      const ruleAbove = o.group !== undefined && previous !== undefined && o.group(previous) !== o.group(row);
      const rest = o.rest?.(row);
      if (rest === undefined) return { cells: columns.map((c) => c.value(row)), ruleAbove };
      return { cells: columns.slice(0, o.identityCount ?? 0).map((c) => c.value(row)), rest, ruleAbove };
    });
    const table = renderTable({ title: o.title, columns, rows, color: o.color, minWidth: Math.min(o.minWidth, o.width) });
    const droppable = columns.filter((c) => c.dropOrder > 0);
    if (table.width <= o.width || droppable.length === 0) return table.lines;
    const first = droppable.reduce((a, b) => (b.dropOrder < a.dropOrder ? b : a));
    columns = columns.filter((c) => c !== first);
  }
}

function threadsCell(row: { requestedThreads: number | null; threads: number | null }): string {
  if (row.requestedThreads !== null) return String(row.requestedThreads);
  return row.threads === null ? 'default' : String(row.threads);
}

function verdictCell(row: BaselineRow): TableCell {
  if (row.verdict === null) return '–';
  return { text: row.verdict.status, style: row.verdict.status === 'VALID' ? 'green' : 'yellow' };
}

function failedRest(row: BaselineRow): TableCell | undefined {
  return row.state === 'completed' ? undefined : { text: `${row.state}: ${row.reason ?? ''}`, style: STATE_STYLE[row.state] };
}

/** Identity columns shared by the per-cell tables. */
function identityColumns(run: RunRecord): FitColumn<BaselineRow>[] {
  const multiModel = new Set(run.cells.map((c) => c.model)).size > 1;
  const hasSeq = baselineRows(run).some((r) => r.sequenceLength !== null);
  return [
    ...(multiModel ? [{ header: 'model', align: 'left' as const, dropOrder: 0, value: (r: BaselineRow) => r.model }] : []),
    { header: 'engine', align: 'left', dropOrder: 0, value: (r) => ({ text: r.engine, style: 'cyan' }) },
    { header: 'threads', align: 'right', dropOrder: 0, value: threadsCell },
    { header: 'batch', align: 'right', dropOrder: 0, value: (r) => String(r.batchSize) },
    ...(hasSeq ? [{ header: 'seq', align: 'right' as const, dropOrder: 0, value: (r: BaselineRow) => (r.sequenceLength === null ? '–' : String(r.sequenceLength)) }] : []),
  ];
}

function stat(f: (r: BaselineRow & { latency: NonNullable<BaselineRow['latency']> }) => string): (r: BaselineRow) => string {
  return (r) => (r.latency === null ? '' : f(r as BaselineRow & { latency: NonNullable<BaselineRow['latency']> }));
}

/**
 * The baseline table: every latency statistic of every cell, the 95%
 * confidence interval of the mean and the verdict. NOISY reasons follow it.
 */
export function statisticsSection(run: RunRecord, width: number, minWidth: number, color: boolean): string[] {
  const rows = baselineRows(run);
  const identity = identityColumns(run);
  const columns: FitColumn<BaselineRow>[] = [
    ...identity,
    { header: 'n', align: 'right', dropOrder: 0, value: stat((r) => String(r.latency.count)) },
    { header: 'mean', align: 'right', dropOrder: 0, value: stat((r) => formatDuration(r.latency.mean)) },
    ...(rows.some((r) => r.rounds !== null) ? [{ header: 'rounds', align: 'right' as const, dropOrder: 0, value: (r: BaselineRow) => (r.rounds === null ? '' : String(r.rounds)) }] : []),
    {
      header: '95% CI of mean',
      align: 'right',
      dropOrder: 0,
      value: stat((r) => (r.interval ? formatDurationRange(r.interval.low, r.interval.high) : r.rounds !== null ? 'n/a (1 round)' : 'n/a (1 batch)')),
    },
    { header: 'p50', align: 'right', dropOrder: 3, value: stat((r) => formatDuration(r.latency.p50)) },
    { header: 'p90', align: 'right', dropOrder: 4, value: stat((r) => formatDuration(r.latency.p90)) },
    { header: 'p95', align: 'right', dropOrder: 5, value: stat((r) => formatDuration(r.latency.p95)) },
    { header: 'p99', align: 'right', dropOrder: 0, value: stat((r) => formatDuration(r.latency.p99)) },
    { header: 'min', align: 'right', dropOrder: 1, value: stat((r) => formatDuration(r.latency.min)) },
    { header: 'max', align: 'right', dropOrder: 2, value: stat((r) => formatDuration(r.latency.max)) },
    { header: 'stdev', align: 'right', dropOrder: 6, value: stat((r) => formatDuration(r.latency.stdev)) },
    { header: 'cv', align: 'right', dropOrder: 0, value: stat((r) => formatPercent(r.latency.cv)) },
    ...(rows.some((r) => r.verdict !== null) ? [{ header: 'verdict', align: 'left' as const, dropOrder: 0, value: verdictCell }] : []),
  ];
  const lines = fittedTable({
    title: 'INFERENCE – LATENCY STATISTICS',
    columns,
    rows,
    group: (r) => `${r.model}\u0000${r.batchSize}`,
    rest: failedRest,
    identityCount: identity.length,
    width,
    minWidth,
    color,
  });
  if (rows.some((r) => r.interval?.across === 'rounds')) {
    lines.push(...wrap('95% CI of mean: Student t across the round means (rounds − 1 degrees of freedom); percentiles pool every round\'s batches.', width));
  }
  const label = engineLabeller(run);
  for (const cell of run.cells) {
    if (cell.state !== 'completed' || !cell.verdict) continue;
    const warnings = cell.verdict.warnings ?? [];
    if (cell.verdict.status !== 'NOISY' && warnings.length === 0) continue;
    const word = cell.verdict.status === 'NOISY' ? 'NOISY' : 'note';
    const head = `${word} ${label(cell)}, batch ${cell.batchSize}: `;
    const reasons = cell.verdict.status === 'NOISY' ? [cell.verdict.reasons.length > 0 ? cell.verdict.reasons.join('; ') : 'no reason recorded'] : [];
    const text = [...reasons, ...warnings.map((w) => `warning: ${w}`)].join('; ');
    lines.push(...wrap(head + text, width - 4).map((l, i) => (i === 0 ? l.replace(word, paint(word, 'yellow', color)) : `    ${l}`)));
  }
  return lines;
}

function pointFlags(p: ScalingPoint): TableCell {
  const parts = [p.parityOk === false ? PARITY_MARKER : '', p.verdict === 'NOISY' ? 'NOISY' : ''].filter((s) => s !== '');
  return parts.length === 0 ? '' : { text: parts.join(' '), style: p.parityOk === false ? 'red' : 'yellow' };
}

interface ScalingRow {
  readonly series: string;
  readonly x: number;
  readonly point: ScalingPoint | null;
  /** samples/s of the series' first point, for efficiency. */
  readonly firstX: number;
  readonly gap: string | null;
  readonly gapState: 'errored' | 'skipped' | null;
}

function scalingRows(view: ScalingView<unknown>): ScalingRow[] {
  return view.series.flatMap((s) => {
    const firstX = s.points[0]?.x ?? 0;
    const rows: ScalingRow[] = [
      ...s.points.map((p) => ({ series: s.label, x: p.x, point: p, firstX, gap: null, gapState: null })),
      ...s.gaps.map((g) => ({ series: s.label, x: g.x, point: null, firstX, gap: g.reason, gapState: g.state })),
    ];
    return rows.sort((a, b) => a.x - b.x);
  });
}

function scalingTable(
  title: string,
  view: ScalingView<unknown>,
  xHeader: string,
  extra: readonly FitColumn<ScalingRow>[],
  width: number,
  minWidth: number,
  color: boolean,
): string[] {
  const measured = (f: (p: ScalingPoint, r: ScalingRow) => TableCell) => (r: ScalingRow) => (r.point === null ? '' : f(r.point, r));
  const columns: FitColumn<ScalingRow>[] = [
    { header: 'engine', align: 'left', dropOrder: 0, value: (r) => ({ text: r.series, style: 'cyan' }) },
    { header: xHeader, align: 'right', dropOrder: 0, value: (r) => String(r.x) },
    { header: 'samples/s', align: 'right', dropOrder: 0, value: measured((p) => ({ text: formatRate(p.samplesPerSecond), style: 'bold' })) },
    ...extra,
    { header: 'p99', align: 'right', dropOrder: 0, value: measured((p) => formatDuration(p.p99Ms)) },
    ...(view.series.some((s) => s.points.some((p) => pointFlags(p) !== ''))
      ? [{ header: 'check', align: 'left' as const, dropOrder: 0, value: measured(pointFlags) }]
      : []),
  ];
  return fittedTable({
    title,
    columns,
    rows: scalingRows(view),
    group: (r) => r.series,
    rest: (r) => (r.gap === null || r.gapState === null ? undefined : { text: `${r.gapState}: ${r.gap}`, style: STATE_STYLE[r.gapState] }),
    identityCount: 2,
    width,
    minWidth,
    color,
  });
}

/** Fixed values picked by the user (`inferbench show --batch-size/--threads`), and which of the two views to show. */
export interface ScalingChoice {
  readonly batchSize?: number;
  readonly threads?: number | null;
  readonly only?: 'core' | 'batch';
}

/**
 * Core scaling (samples/s against threads at the default batch size) and
 * batch scaling (samples/s and p99 against batch size at the default thread
 * setting), each a table, or one line saying why it cannot be shown.
 */
export function scalingSections(run: RunRecord, width: number, minWidth: number, color: boolean, fixed: ScalingChoice = {}): string[] {
  const out: string[] = [];
  const core = coreScalingView(run, fixed.batchSize === undefined ? {} : { batchSize: fixed.batchSize });
  if (fixed.only === 'batch') {
    // only batch scaling asked for
  } else if (core.insufficient === null) {
    const speedup: FitColumn<ScalingRow> = {
      header: 'speed-up',
      align: 'right',
      dropOrder: 0,
      value: (r) => (r.point === null ? '' : formatRatio(r.point.gain)),
    };
    const efficiency: FitColumn<ScalingRow> = {
      header: 'efficiency',
      align: 'right',
      dropOrder: 1,
      value: (r) => (r.point === null || r.firstX <= 0 ? '' : formatPercent(r.point.gain / (r.x / r.firstX))),
    };
    out.push(...scalingTable(`CORE SCALING – batch ${core.fixed.batchSize}`, core, 'threads', [speedup, efficiency], width, minWidth, color));
    out.push(...wrap('speed-up: samples/s over the engine\'s fewest-thread figure; efficiency: speed-up per added thread (100% is linear).', width));
  } else {
    out.push(...wrap(`Core scaling not shown: ${core.insufficient}.`, width).map((l) => paint(l, 'dim', color)));
  }
  if (fixed.only === 'core') return out;
  if (fixed.only !== 'batch') out.push('');
  const batch = batchScalingView(run, fixed.threads === undefined ? {} : { threads: fixed.threads });
  if (batch.insufficient === null) {
    const gain: FitColumn<ScalingRow> = {
      header: 'vs smallest',
      align: 'right',
      dropOrder: 1,
      value: (r) => (r.point === null ? '' : formatRatio(r.point.gain)),
    };
    const meanCol: FitColumn<ScalingRow> = {
      header: 'mean',
      align: 'right',
      dropOrder: 2,
      value: (r) => (r.point === null ? '' : formatDuration(r.point.meanMs)),
    };
    out.push(...scalingTable(`BATCH SCALING – ${describeThreads(batch.fixed.threads)}`, batch, 'batch', [gain, meanCol], width, minWidth, color));
  } else {
    out.push(...wrap(`Batch scaling not shown: ${batch.insufficient}.`, width).map((l) => paint(l, 'dim', color)));
  }
  return out;
}

/** Baseline RSS, growth during the timed loop, engine and GPU memory; only when the record has them. */
export function memoryDetailSection(run: RunRecord, width: number, minWidth: number, color: boolean): string[] {
  const rows = baselineRows(run).filter((r) => r.memory !== null);
  if (rows.length === 0) return [];
  const hasEngine = rows.some((r) => r.memory?.engine);
  const hasGpu = rows.some((r) => r.memory?.gpuBytes !== undefined && r.memory?.gpuBytes !== null);
  const mem = (f: (m: NonNullable<BaselineRow['memory']>) => string) => (r: BaselineRow) => (r.memory === null ? '' : f(r.memory));
  const columns: FitColumn<BaselineRow>[] = [
    ...identityColumns(run),
    { header: 'after load', align: 'right', dropOrder: 2, value: mem((m) => formatBytes(m.baselineRssBytes)) },
    { header: 'peak', align: 'right', dropOrder: 3, value: mem((m) => formatBytes(m.peakRssBytes)) },
    { header: 'growth', align: 'right', dropOrder: 0, value: mem((m) => `+${formatBytes(m.growthBytes)}`) },
    { header: 'sampled', align: 'right', dropOrder: 1, value: mem((m) => (m.peakSource === 'kernel' ? 'kernel peak' : `${Math.round(m.sampleHz)} Hz`)) },
    ...(rows.some((r) => r.memory?.process)
      ? [{ header: 'process', align: 'left' as const, dropOrder: 5, value: mem((m) => m.process?.label ?? 'this one') }]
      : []),
    ...(hasEngine
      ? [
          { header: 'tensors', align: 'right' as const, dropOrder: 4, value: mem((m) => (m.engine ? String(m.engine.numTensors) : '–')) },
          { header: 'engine bytes', align: 'right' as const, dropOrder: 0, value: mem((m) => (m.engine ? formatBytes(m.engine.numBytes) : '–')) },
        ]
      : []),
    ...(hasGpu
      ? [{ header: 'GPU', align: 'right' as const, dropOrder: 0, value: mem((m) => (m.gpuBytes === null || m.gpuBytes === undefined ? '–' : formatBytes(m.gpuBytes))) }]
      : []),
  ];
  const lines = fittedTable({ title: 'MEMORY – GROWTH', columns, rows, group: (r) => `${r.model}\u0000${r.batchSize}`, width, minWidth, color });
  return [
    ...lines,
    ...wrap(
      'after load: RSS once the model is loaded and warmed up; growth: peak RSS during the timed loop minus that' +
        (hasEngine ? '; tensors and engine bytes: the engine\'s own count (tfjs tf.memory())' : '') +
        (hasGpu ? '; GPU: this process\'s peak GPU memory from nvidia-smi' : '') +
        (rows.some((r) => r.memory?.process) ? '; process: whose RSS (a browser cell\'s is the Chromium renderer that ran its page, GPU process not included; "this one" is this Node process, where the engine ran)' : '') +
        '.',
      width,
    ),
  ];
}

/** Model load and first-batch latency apart from the steady state, with the warmup batches apart too. */
export function coldStartSection(run: RunRecord, width: number, minWidth: number, color: boolean): string[] {
  const rows = baselineRows(run).filter((r) => r.state === 'completed');
  if (rows.length === 0) return [];
  const dur = (v: number | null): string => (v === null ? '–' : formatDuration(v));
  const columns: FitColumn<BaselineRow>[] = [
    ...identityColumns(run),
    { header: 'load', align: 'right', dropOrder: 0, value: (r) => dur(r.loadMs) },
    // Records from before cold start was measured have neither figure; their columns are left out rather than all '–'.
    ...(rows.some((r) => r.firstBatchMs !== null)
      ? [{ header: 'first batch', align: 'right' as const, dropOrder: 0, value: (r: BaselineRow): TableCell => ({ text: dur(r.firstBatchMs), style: 'bold' }) }]
      : []),
    ...(rows.some((r) => r.firstPassMs !== null) ? [{ header: 'first pass', align: 'right' as const, dropOrder: 0, value: (r: BaselineRow) => dur(r.firstPassMs) }] : []),
    { header: 'warmup', align: 'right', dropOrder: 2, value: (r) => (r.warmupBatches === null ? '–' : `${r.warmupBatches} batches`) },
    ...(rows.some((r) => r.warmupMeanMs !== null)
      ? [{ header: 'warmup mean', align: 'right' as const, dropOrder: 1, value: (r: BaselineRow) => dur(r.warmupMeanMs) }]
      : []),
    { header: 'steady mean', align: 'right', dropOrder: 0, value: (r) => dur(r.latency?.mean ?? null) },
  ];
  return [
    ...fittedTable({ title: 'COLD START', columns, rows, group: (r) => `${r.model}\u0000${r.batchSize}`, width, minWidth, color }),
    ...wrap(
      rows.some((r) => r.firstPassMs !== null)
        ? 'load: model into the engine; first batch: the very first run after load; first pass: the untimed warm pass over every row (every padded shape seen once), of the first round; none is in the statistics above.'
        : 'load: model into the engine; first batch: the very first run after load, before warmup; neither is in the statistics above.',
      width,
    ),
  ];
}

/** Output parity against the reference engine and accuracy against labels; only when the record has them. */
export function paritySection(run: RunRecord, width: number, minWidth: number, color: boolean): string[] {
  const rows = baselineRows(run).filter((r) => r.state === 'completed' && (r.parity !== null || r.accuracy !== null || r.parityUnavailable !== null));
  if (rows.length === 0) return [];
  const references = new Set(rows.flatMap((r) => (r.parity === null ? [] : [r.parity.reference])));
  const par = (f: (p: NonNullable<BaselineRow['parity']>) => string) => (r: BaselineRow) => (r.parity === null ? '–' : f(r.parity));
  const columns: FitColumn<BaselineRow>[] = [
    ...identityColumns(run),
    { header: 'reference', align: 'left', dropOrder: 1, value: par((p) => p.reference) },
    { header: 'max |diff|', align: 'right', dropOrder: 0, value: par((p) => formatDifference(p.maxAbsDiff)) },
    { header: 'tolerance', align: 'right', dropOrder: 2, value: par((p) => formatDifference(p.tolerance)) },
    { header: 'argmax agree', align: 'right', dropOrder: 0, value: par((p) => formatPercent(p.argmaxAgreement)) },
    { header: 'accuracy', align: 'right', dropOrder: 0, value: (r) => (r.accuracy === null ? '–' : formatPercent(r.accuracy)) },
    {
      header: 'parity',
      align: 'left',
      dropOrder: 0,
      value: (r) =>
        r.parityOk === null
          ? r.parityUnavailable !== null
            ? { text: 'unavailable', style: 'yellow' }
            : { text: references.has(r.engine) || r.engine === (run.config['parity'] as { reference?: unknown } | undefined)?.reference ? 'reference' : 'not checked', style: 'dim' }
          : r.parityOk ? { text: '✓ ok', style: 'green' } : { text: PARITY_MARKER, style: 'red' },
    },
  ];
  const lines = fittedTable({ title: 'OUTPUT PARITY & ACCURACY', columns, rows, group: (r) => `${r.model}\u0000${r.batchSize}`, width, minWidth, color });
  // One line per distinct reason, naming the cells it applies to, so a missing reference is impossible to miss.
  const why = new Map<string, string[]>();
  for (const r of rows) if (r.parityUnavailable !== null) why.set(r.parityUnavailable, [...(why.get(r.parityUnavailable) ?? []), `${r.label} batch ${r.batchSize}`]);
  for (const [reason, cells] of why) lines.push(...wrap(`parity unavailable (${cells.join(', ')}): ${reason}`, width - 4).map((l, i) => paint(i === 0 ? l : `    ${l}`, 'yellow', color)));
  return lines;
}

/**
 * One red warning per cell whose outputs differ from the reference beyond
 * tolerance, naming engine, batch, difference and tolerance: a fast engine
 * that returns wrong answers must be impossible to miss.
 */
export function parityWarningLines(run: RunRecord, width: number, color: boolean): string[] {
  const label = engineLabeller(run);
  return parityFailures(run).flatMap((cell) => {
    const p = cell.parity as NonNullable<typeof cell.parity>;
    const text =
      `warning: ${PARITY_MARKER} ${label(cell)}, batch ${cell.batchSize}: outputs differ from ${p.reference} by ` +
      `${formatDifference(p.maxAbsDiff)}, over the tolerance ${formatDifference(p.tolerance)} ` +
      `(argmax agrees on ${formatPercent(p.argmaxAgreement)} of ${p.rows} rows); its speed is for wrong answers`;
    return wrap(text, width - 4).map((l, i) => paint(i === 0 ? l : `    ${l}`, 'red', color));
  });
}
