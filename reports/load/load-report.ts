/**
 * Terminal report of `inferbench load`: LATENCY UNDER LOAD (one row per
 * engine × rate: offered and achieved rate, latency percentiles, queue
 * wait, batches formed, goodput, share over the goal and the verdict),
 * TIME PER REQUEST (where a request's time went), PEAK RATE (each engine's
 * highest rate meeting the goal, with its interval), then every reason a
 * rate is not VALID. Pure: same record, same text.
 */
import { unavailableLines } from '../unavailable-text.js';
import type { LoadRunRecord, LoadSummary } from '../../src/core/load-results.js';
import { formatDuration, formatPercent, formatRate, formatTimestamp } from '../../src/core/units.js';
import { goalText } from '../../src/core/latency-goal.js';
import { banner, fitLines, type Style, type TableCell, type TableRow, wrap, wrapHanging } from '../text-table.js';
import { fitNote, fittedRows } from '../fitted-table.js';
import { fitReport, HEADER_WIDTH, layoutWidth, type ReportLayout } from '../report-layout.js';
import { batchSizesText, cutProbes, loadFailedCells, loadPeakRows, loadRateRows, loadSettingsView, type LoadRateRow } from './load-views.js';

const VERDICT_STYLE: Record<LoadSummary['verdict']['status'], Style> = { VALID: 'green', overloaded: 'red', 'too short': 'yellow' };

const rps = (v: number | null): string => (v === null ? '–' : formatRate(v, ''));

/** A latency, with `≥` when unfinished requests make it a lower bound. */
function latency(summary: LoadSummary, value: number): string {
  const censored = summary.latency.censoredFromMs;
  return `${censored !== null && value >= censored ? '≥' : ''}${formatDuration(value)}`;
}

function identity(row: LoadRateRow): TableCell[] {
  const session = row.cell.state === 'skipped' ? undefined : row.cell.session;
  return [
    { text: row.label, style: 'cyan' },
    session ? (session.threads === null ? 'default' : String(session.threads)) : '–',
    formatRate(row.targetRps, ''),
  ];
}

const IDENTITY = [
  // Whole: a cut engine name could make two rows read as one.
  { header: 'engine', align: 'left' as const, whole: true },
  { header: 'threads', align: 'right' as const },
  { header: 'rate', align: 'right' as const },
];

function loadTable(run: LoadRunRecord, color: boolean, minWidth: number, maxWidth: number) {
  const rows = loadRateRows(run);
  const slo = loadSettingsView(run).slo;
  const tableRows: TableRow[] = rows.map((row, i) => {
    const s = row.summary;
    const verdict = row.passed === null ? s.verdict.status : `${s.verdict.status}${row.passed ? ' ✓' : ' ✗'}`;
    return {
      cells: [
        ...identity(row),
        rps(s.offeredRps),
        rps(s.achievedRps),
        latency(s, s.latency.p50),
        latency(s, s.latency.p90),
        latency(s, s.latency.p95),
        { text: latency(s, s.latency.p99), style: 'bold' },
        latency(s, s.latency.p999),
        formatDuration(s.queueWait.mean),
        latency(s, s.queueWait.p99),
        batchSizesText(s),
        ...(slo ? [rps(s.slo?.goodputRps ?? null), formatPercent(s.slo?.overShare ?? 0)] : []),
        String(row.rounds),
        { text: verdict, style: VERDICT_STYLE[s.verdict.status] },
      ],
      ruleAbove: i > 0 && rows[i - 1]?.label !== row.label,
    };
  });
  for (const cell of loadFailedCells(run)) {
    if (cell.state === 'errored' && (cell.probes?.length ?? 0) > 0) continue;
    tableRows.push({ cells: [{ text: cell.engine, style: 'cyan' }, '–', '–'], rest: { text: `${cell.state}: ${cell.reason}`, style: cell.state === 'errored' ? 'red' : 'yellow' }, ruleAbove: tableRows.length > 0 });
  }
  return fittedRows({
    title: 'LATENCY UNDER LOAD – per engine and offered rate (req/s)',
    columns: [
      ...IDENTITY,
      { header: 'offered', align: 'right' },
      { header: 'achieved', align: 'right' },
      { header: 'p50', align: 'right', dropOrder: 8 },
      { header: 'p90', align: 'right', dropOrder: 1 },
      { header: 'p95', align: 'right', dropOrder: 2 },
      { header: 'p99', align: 'right' },
      { header: 'p99.9', align: 'right', dropOrder: 3 },
      { header: 'queue mean', align: 'right', dropOrder: 5 },
      { header: 'queue p99', align: 'right', dropOrder: 4 },
      { header: 'batches (size:calls)', align: 'left', dropOrder: 6 },
      ...(slo ? [{ header: 'goodput', align: 'right' as const }, { header: `over ${slo.limitMs} ms`, align: 'right' as const }] : []),
      { header: 'rounds', align: 'right', dropOrder: 7 },
      { header: 'verdict', align: 'left' },
    ],
    rows: tableRows,
    color,
    minWidth: Math.min(minWidth, maxWidth),
    maxWidth,
  });
}

/** The four parts' means; none when no request completed. */
function partCells(s: LoadSummary): string[] {
  const parts = [s.parts.queueMs, s.parts.prepareMs, s.parts.engineMs, s.parts.postMs];
  return s.completedRequests === 0 ? parts.map(() => '–') : parts.map(formatDuration);
}

function partsTable(run: LoadRunRecord, color: boolean, minWidth: number, maxWidth: number) {
  const rows = loadRateRows(run);
  return fittedRows({
    title: 'TIME PER REQUEST – means over completed requests',
    columns: [
      ...IDENTITY,
      { header: 'latency', align: 'right' },
      { header: 'queue wait', align: 'right' },
      { header: 'tokenize+collate', align: 'right', dropOrder: 2 },
      { header: 'engine', align: 'right' },
      { header: 'post-process', align: 'right', dropOrder: 1 },
      { header: 'requests', align: 'right', dropOrder: 4 },
      { header: 'unfinished', align: 'right', dropOrder: 3 },
    ],
    rows: rows.map((row, i) => ({
      cells: [
        ...identity(row),
        latency(row.summary, row.summary.latency.mean),
        ...partCells(row.summary),
        String(row.summary.requests),
        String(row.summary.unfinished),
      ],
      ruleAbove: i > 0 && rows[i - 1]?.label !== row.label,
    })),
    color,
    minWidth: Math.min(minWidth, maxWidth),
    maxWidth,
  });
}

/** `420 – 440`, `420 – none failed up to the search's ceiling`, or `none passed; fails from 0.70`. */
function intervalText(i: { readonly lastPass: number | null; readonly firstFail: number | null; readonly interrupted?: boolean }): string {
  const cut = i.interrupted ? ' (search interrupted; the cut probe left out)' : '';
  if (i.lastPass === null) return i.firstFail === null ? `no whole probe${cut}` : `none passed (lowest tried ${rps(i.firstFail)} failed)${cut}`;
  if (i.firstFail === null && i.interrupted) return `${rps(i.lastPass)} passed; search interrupted before a rate failed`;
  return `${rps(i.lastPass)} – ${i.firstFail === null ? 'none failed' : rps(i.firstFail)}${cut}`;
}

function peakTable(run: LoadRunRecord, color: boolean, minWidth: number, maxWidth: number) {
  const peaks = loadPeakRows(run);
  if (peaks.length === 0) return null;
  return fittedRows({
    title: `PEAK RATE – highest rate meeting ${goalText(loadSettingsView(run).slo ?? { percentile: 99, limitMs: 0 })} as a VALID probe`,
    columns: [
      { header: 'engine', align: 'left', whole: true },
      { header: 'peak (req/s)', align: 'right' },
      { header: 'interval: last pass – first fail', align: 'left', dropOrder: 4 },
      { header: '95% CI across rounds', align: 'left', dropOrder: 3 },
      { header: 'per round', align: 'left', dropOrder: 1 },
      { header: 'probes', align: 'right', dropOrder: 2 },
    ],
    rows: peaks.map((p) => ({
      cells: [
        { text: p.label, style: 'cyan' },
        // The peak column is never dropped, so an interrupted search is said here, at every width.
        { text: `${p.peakRps === null ? 'none' : formatRate(p.peakRps, '')}${p.interval.interrupted ? ' (interrupted)' : ''}`, style: 'bold' },
        intervalText(p.interval),
        p.ci95 ? `${rps(p.ci95.low)} – ${rps(p.ci95.high)}` : p.rounds.length > 1 ? 'n/a' : 'one round',
        p.rounds.map((r) => (r.lastPass === null ? `none ≥ ${rps(r.firstFail)}` : `${rps(r.lastPass)}–${r.firstFail === null ? '∞' : rps(r.firstFail)}`)).join(', '),
        String(p.probes),
      ],
    })),
    color,
    minWidth: Math.min(minWidth, maxWidth),
    maxWidth,
  });
}

/** The header, the tables and the notes, as one string. */
export function renderLoadReport(run: LoadRunRecord, options: { color?: boolean } & ReportLayout = {}): string {
  const color = options.color === true;
  const maxWidth = layoutWidth(options, HEADER_WIDTH);
  const prose = Math.min(maxWidth, HEADER_WIDTH);
  const env = run.environment;
  const s = loadSettingsView(run);
  const arrivals = s.arrival === 'gamma' ? `gamma (burstiness ${s.burstiness})` : s.arrival;
  const header = [
    banner('LATENCY UNDER LOAD', prose, color),
    ...run.models.flatMap((m) => fitLines([`model: ${m.name} (${m.source})`], prose)),
    ...unavailableLines(run, prose),
    ...wrap(`${env.cpuModel}, ${env.cores} cores · ${env.gpus.length > 0 ? env.gpus.join('; ') : 'no GPU'} · node ${env.node} · ${formatTimestamp(env.date)}`, prose),
    ...wrap(
      `open loop: ${arrivals} arrivals drawn in advance (seed ${s.seed}); each rate: ${s.warmupMs / 1000} s of warm-up arrivals, then at least ${s.durationMs / 1000} s and ${s.minQueries} requests measured; ` +
        `batcher: ${s.maxBatch > 1 ? `up to ${s.maxBatch} requests, waiting at most ${s.maxWaitMs} ms` : 'one request per engine call'}; ` +
        `${s.slo ? `goal ${goalText(s.slo)}; ` : ''}${s.rounds} round${s.rounds === 1 ? '' : 's'}, each a fresh load`,
      prose,
    ),
    ...wrap('latency = completion − scheduled arrival (never from pickup), percentiles by linear interpolation (numpy default) over every measured request; ≥: a lower bound, requests were unfinished; VALID: minimum duration and requests met, achieved within 2% of offered, queue not growing', prose),
  ];
  const tables = (minWidth: number) => [loadTable(run, color, minWidth, maxWidth), partsTable(run, color, minWidth, maxWidth), peakTable(run, color, minWidth, maxWidth)].filter((t) => t !== null);
  const blocks = tables(Math.max(...tables(0).map((t) => t.width)));
  const notes = loadRateRows(run)
    .filter((r) => r.summary.verdict.status !== 'VALID')
    .flatMap((r) => wrapHanging(`${r.summary.verdict.status} ${r.label} at ${formatRate(r.targetRps, ' req/s')}: ${r.summary.verdict.reasons.join('; ')}`, maxWidth));
  const cut = cutProbes(run).flatMap(({ label, probe }) => wrapHanging(`left out: ${label} at ${formatRate(probe.targetRps, ' req/s')}, ${probe.endedEarly} (kept in results.json and the CSV, no evidence in the tables, charts or comparisons)`, maxWidth));
  const lines = [...header, '', ...blocks.flatMap((b) => [...b.lines, ...fitNote(b, maxWidth), '']), ...notes, ...cut];
  return fitReport(lines, options, maxWidth).join('\n').trimEnd();
}
