/**
 * `inferbench compare` for two load runs: per engine the ratio of peak
 * rates (B/A) with each side's interval, and per engine and rate measured
 * on both sides the ratio of their p99 latency (the goal's percentile when
 * both runs share one). Pure views, shared by the terminal and the dashboard.
 * It makes no faster or slower call: a peak is bracketed to the search's
 * precision, and its interval across rounds is the evidence to read.
 */
import type { LoadRunRecord } from './load-results.js';
import { formatDuration, formatRate } from '../../core/units.js';
import { paint, type TableRow, wrap } from '../../../reports/text-table.js';
import { fitNote, fittedRows } from '../../../reports/fitted-table.js';
import { HEADER_WIDTH, UNLIMITED_WIDTH } from '../../../reports/report-layout.js';
import { chartPercentile, percentileOf, loadPeakRows, loadRateRows, type LoadPeakRow } from './load-views.js';

export interface LoadPeakPair {
  readonly label: string;
  readonly a: LoadPeakRow | null;
  readonly b: LoadPeakRow | null;
  /** B's peak ÷ A's; null unless both found one. */
  readonly ratio: number | null;
}

export interface LoadRatePair {
  readonly label: string;
  readonly targetRps: number;
  readonly aMs: number;
  readonly bMs: number;
  readonly ratio: number;
  readonly aVerdict: string;
  readonly bVerdict: string;
}

export interface LoadComparison {
  /** The latency percentile compared at equal rates. */
  readonly percentile: number;
  readonly peaks: readonly LoadPeakPair[];
  readonly rates: readonly LoadRatePair[];
}

/**
 * What two load runs are matched on, as compareServerRuns pairs them: each
 * engine's peak search, and each engine at each rate asked for. Two runs
 * share a key exactly when `inferbench compare` shows a row for it, so the
 * dashboard's picker offers the runs the CLI compares (a run of --rates
 * alone has no peak, and matching by peak alone offered none).
 */
export function loadComparisonKeys(run: LoadRunRecord): Set<string> {
  return new Set([
    ...loadPeakRows(run).map((p) => `peak · ${p.label}`),
    ...loadRateRows(run).map((r) => `${r.label} @ ${r.targetRps} req/s`),
  ]);
}

/** Matches engines (and models) by label; rates by the offered rate asked for. */
export function compareServerRuns(a: LoadRunRecord, b: LoadRunRecord): LoadComparison {
  const pa = chartPercentile(a);
  const percentile = pa === chartPercentile(b) ? pa : 99;
  const peaksA = loadPeakRows(a);
  const peaksB = loadPeakRows(b);
  const labels = [...new Set([...peaksA, ...peaksB].map((p) => p.label))];
  const peaks = labels.map((label): LoadPeakPair => {
    const x = peaksA.find((p) => p.label === label) ?? null;
    const y = peaksB.find((p) => p.label === label) ?? null;
    return { label, a: x, b: y, ratio: x?.peakRps && y?.peakRps ? y.peakRps / x.peakRps : null };
  });
  const rowsB = loadRateRows(b);
  const rates = loadRateRows(a).flatMap((x): LoadRatePair[] => {
    const y = rowsB.find((r) => r.label === x.label && r.targetRps === x.targetRps);
    if (!y) return [];
    const aMs = percentileOf(x.summary, percentile);
    const bMs = percentileOf(y.summary, percentile);
    return [{ label: x.label, targetRps: x.targetRps, aMs, bMs, ratio: aMs > 0 ? bMs / aMs : Number.NaN, aVerdict: x.summary.verdict.status, bVerdict: y.summary.verdict.status }];
  });
  return { percentile, peaks, rates };
}

const peakText = (p: LoadPeakRow | null): string =>
  p === null ? '–' : p.peakRps === null ? 'none passed' : `${formatRate(p.peakRps, '')} (${p.interval.lastPass ?? '–'}–${p.interval.firstFail ?? (p.interval.interrupted ? 'interrupted' : '∞')})`;

/** "onnx-cpu 1.05×, onnx-wasm 0.97×": the ratios of one table, for the line the comparison opens with. */
const ratios = (items: readonly { readonly label: string; readonly ratio: number | null }[]): string =>
  items.map((i) => `${i.label} ${i.ratio === null || !Number.isFinite(i.ratio) ? '–' : `${i.ratio.toFixed(2)}×`}`).join(', ');

/**
 * The comparison as the terminal prints it: one line of ratios first (the
 * answer), then the two tables fitted to `width` (as run's report: columns
 * give way, a note says which; `wide`: no limit), and the method line.
 */
export function renderServerComparison(a: LoadRunRecord, b: LoadRunRecord, cmp: LoadComparison, color = false, width = UNLIMITED_WIDTH): string {
  const prose = Math.min(width, HEADER_WIDTH);
  const both = cmp.peaks.filter((p) => p.a !== null && p.b !== null);
  const p = `p${cmp.percentile}`;
  const summary = [
    ...(both.length > 0 ? [`peak rate B/A: ${ratios(both)}`] : []),
    ...(cmp.rates.length > 0 ? [`${p} latency B/A at equal rates: ${ratios(cmp.rates.map((r) => ({ label: `${r.label} @ ${formatRate(r.targetRps, '')}`, ratio: r.ratio })))}`] : []),
  ];
  const lines: string[] = [...wrap(`A ${a.id} against B ${b.id}: ${summary.join('; ')} (above 1: B sustains more, or waits longer).`, prose).map((l, i) => (i === 0 ? paint(l, 'bold', color) : l)), ''];
  if (cmp.peaks.length > 0) {
    const rows: TableRow[] = cmp.peaks.map((x) => ({ cells: [{ text: x.label, style: 'cyan' }, peakText(x.a), peakText(x.b), x.ratio === null ? '–' : `${x.ratio.toFixed(2)}×`] }));
    const t = fittedRows({
      title: `PEAK RATE – A ${a.id} vs B ${b.id}`,
      columns: [{ header: 'engine', align: 'left', whole: true }, { header: 'A peak req/s (interval)', align: 'right' }, { header: 'B peak req/s (interval)', align: 'right' }, { header: 'B/A', align: 'right' }],
      rows,
      color,
      minWidth: 0,
      maxWidth: width,
    });
    lines.push(...t.lines, ...fitNote(t, width), '');
  }
  if (cmp.rates.length > 0) {
    const rows: TableRow[] = cmp.rates.map((r) => ({
      cells: [{ text: r.label, style: 'cyan' }, formatRate(r.targetRps, ''), formatDuration(r.aMs), formatDuration(r.bMs), Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}×` : '–', `${r.aVerdict} / ${r.bVerdict}`],
    }));
    const t = fittedRows({
      title: `${p} LATENCY AT EQUAL RATES – A ${a.id} vs B ${b.id}`,
      columns: [
        { header: 'engine', align: 'left', whole: true },
        { header: 'rate', align: 'right' },
        { header: `${p} A`, align: 'right', dropOrder: 2 },
        { header: `${p} B`, align: 'right', dropOrder: 1 },
        { header: 'B/A', align: 'right' },
        { header: 'verdict A / B', align: 'left' },
      ],
      rows,
      color,
      minWidth: 0,
      maxWidth: width,
    });
    lines.push(...t.lines, ...fitNote(t, width), '');
  }
  lines.push(
    ...wrap(
      "No faster/slower call: a peak is known to the search's precision (its interval: last passing – first failing rate), and latency at one rate to the machine's run-to-run spread; read the ratios with the intervals and verdicts beside them.",
      prose,
    ),
    '',
  );
  return lines.join('\n');
}
