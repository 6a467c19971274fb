/**
 * Terminal tables of the dashboard views: latency statistics with the
 * confidence interval and verdict, core and batch scaling, memory detail,
 * cold start and output parity. Each reads the pure views in views.ts, so
 * the numbers match the charts and a web dashboard exactly.
 */
import type { RunRecord } from '../../core/results.js';
import { orderedCells } from '../../../reports/run-summary.js';
import { cellNamer, groupByReason } from '../../../reports/cell-names.js';
import { paint, type TableCell, wrap } from '../../../reports/text-table.js';
import { formatDuration, formatDurationRange, formatPercent, formatRate, formatRatio } from '../../core/units.js';
import { failedRest, type FitColumn, fittedTable, flagsCell, identityColumns, STATE_STYLE } from '../../../reports/fitted-table.js';
import {
  type BaselineRow,
  baselineRows,
  batchScalingView,
  coreScalingView,
  describeThreads,
  PARITY_MARKER,
  type ScalingPoint,
  type ScalingView,
} from '../../../reports/run-views.js';

export { PARITY_MARKER } from '../../../reports/run-views.js';
export { coldStartSection, memoryDetailSection, paritySection, parityWarningLines } from './terminal-cell-sections.js';

function stat(f: (r: BaselineRow & { latency: NonNullable<BaselineRow['latency']> }) => string): (r: BaselineRow) => string {
  return (r) => (r.latency === null ? '' : f(r as BaselineRow & { latency: NonNullable<BaselineRow['latency']> }));
}

function verdictCell(row: BaselineRow): TableCell {
  const extra = row.flags.filter((f) => f !== 'NOISY' && f !== PARITY_MARKER);
  if (row.verdict === null) return extra.length > 0 ? flagsCell(extra) : '–';
  return { text: [row.verdict.status, ...extra].join(' '), style: row.verdict.status === 'VALID' && extra.length === 0 ? 'green' : 'yellow' };
}

/**
 * The baseline table: every latency statistic of every cell, the 95%
 * confidence interval of the mean and the verdict. NOISY reasons follow it.
 */
export function statisticsSection(run: RunRecord, width: number, minWidth: number, color: boolean): string[] {
  const rows = baselineRows(run);
  const identity = identityColumns(run, rows);
  const columns: FitColumn<BaselineRow>[] = [
    ...identity,
    { header: 'n', align: 'right', dropOrder: 9, value: stat((r) => String(r.latency.count)) },
    { header: 'mean', align: 'right', dropOrder: 0, value: (r) => (r.meanMs === null ? '' : formatDuration(r.meanMs)) },
    ...(rows.some((r) => r.rounds !== null) ? [{ header: 'rounds', align: 'right' as const, dropOrder: 10, value: (r: BaselineRow) => (r.rounds === null ? '' : String(r.rounds)) }] : []),
    {
      header: '95% CI of mean',
      align: 'right',
      dropOrder: 0,
      value: stat((r) => (r.interval ? formatDurationRange(r.interval.low, r.interval.high) : r.rounds !== null ? 'n/a (1 round)' : 'n/a (1 batch)')),
    },
    { header: 'p50', align: 'right', dropOrder: 3, value: stat((r) => formatDuration(r.latency.p50)) },
    { header: 'p90', align: 'right', dropOrder: 4, value: stat((r) => formatDuration(r.latency.p90)) },
    { header: 'p95', align: 'right', dropOrder: 5, value: stat((r) => formatDuration(r.latency.p95)) },
    { header: 'p99', align: 'right', dropOrder: 7, value: stat((r) => formatDuration(r.latency.p99)) },
    { header: 'min', align: 'right', dropOrder: 1, value: stat((r) => formatDuration(r.latency.min)) },
    { header: 'max', align: 'right', dropOrder: 2, value: stat((r) => formatDuration(r.latency.max)) },
    { header: 'stdev', align: 'right', dropOrder: 6, value: stat((r) => formatDuration(r.latency.stdev)) },
    { header: 'cv', align: 'right', dropOrder: 8, value: stat((r) => formatPercent(r.latency.cv)) },
    ...(rows.some((r) => r.verdict !== null) ? [{ header: 'verdict', align: 'left' as const, dropOrder: 0, value: verdictCell }] : []),
  ];
  const lines = fittedTable({
    title: 'INFERENCE – LATENCY STATISTICS (engine time per batch)',
    columns,
    rows,
    group: (r) => `${r.model}\u0000${r.batchSize}`,
    rest: failedRest,
    identityCount: identity.length,
    width,
    minWidth,
    color,
  });
  lines.push(
    ...wrap(
      (rows.some((r) => r.interval?.across === 'rounds')
        ? 'mean: the mean of round means, which the 95% CI is centred on (Student t on the log scale across round means, rounds − 1 df); '
        : 'mean: the mean per batch; ') + 'n, percentiles, min, max, stdev and cv pool every batch of every round.' +
        (rows.some((r) => r.engineTime?.covers.startsWith("the pipeline's")) ? " Pipeline rows (transformers-js): the pipeline's own forward." : ''),
      width,
    ),
  );
  lines.push(...verdictLines(run, width, color));
  return lines;
}

/**
 * NOISY reasons and verdict warnings, each distinct text once with the cells
 * it applies to (named by what varies in the run), so a sweep whose cells
 * share a reason prints it once rather than once per cell.
 */
export function verdictLines(run: RunRecord, width: number, color: boolean): string[] {
  const name = cellNamer(run);
  const items: { word: string; text: string; cell: string }[] = [];
  for (const cell of orderedCells(run)) {
    if (cell.state !== 'completed' || !cell.verdict) continue;
    if (cell.verdict.status === 'NOISY') items.push({ word: 'NOISY', text: cell.verdict.reasons.length > 0 ? cell.verdict.reasons.join('; ') : 'no reason recorded', cell: name(cell) });
    for (const w of cell.verdict.warnings ?? []) items.push({ word: 'note', text: `warning: ${w}`, cell: name(cell) });
  }
  return groupByReason(items, (i) => `${i.word}\u0000${i.text}`, (i) => i.cell).flatMap((g) => {
    const [word = '', text = ''] = g.reason.split('\u0000');
    const head = g.cells.length === 1 ? `${word} ${g.cells[0]}: ${text}` : `${word} (${g.cells.length} cells): ${text}`;
    const styled = wrap(head, width - 4).map((l, i) => (i === 0 ? l.replace(word, paint(word, 'yellow', color)) : `    ${l}`));
    return g.cells.length === 1 ? styled : [...styled, ...wrap(g.cells.join('; '), width - 4).map((l) => `    ${l}`)];
  });
}

function pointFlags(p: ScalingPoint): TableCell {
  // Partial cells are gaps, never points; a point can only be wrong or noisy.
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
  readonly gapState: 'errored' | 'skipped' | 'partial' | null;
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
    // The threads each engine reported using: the axis (core scaling) is the request, the engines may have used other counts.
    { header: xHeader === 'threads' ? 'used' : 'threads', align: 'right', dropOrder: 0, value: measured((p) => (p.threads === null ? 'default' : String(p.threads))) },
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

/** How every scaling figure is derived, said under each scaling table. */
const SCALING_NOTE =
  'samples/s: rows of one pass ÷ engine time per pass (mean of round means × batches of a pass); p99 pools every batch; a cell without a whole pass is listed as partial, not drawn.';

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
    out.push(...wrap('speed-up: samples/s over the engine\'s fewest-thread figure; efficiency: speed-up per added thread (100% is linear). ' + SCALING_NOTE, width));
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
