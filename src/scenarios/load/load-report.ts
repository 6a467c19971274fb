/**
 * Terminal report of `inferbench load`. By default one screen (as run's,
 * issue 47): the answer (each engine's peak sustainable rate with its
 * interval, and whether the best is told apart from the next), one compact
 * table, one line each for verdicts, cells not completed and the engines
 * not run here. Every table is a view (LOAD_VIEWS) that --details prints in
 * order and `inferbench show ID --view NAME` alone: LATENCY UNDER LOAD
 * (one row per engine × rate: offered and achieved rate, latency
 * percentiles, queue wait, batches formed, goodput, share over the goal and
 * the verdict), TIME PER REQUEST (where a request's time went), PEAK RATE
 * (each engine's highest rate meeting the goal, with its interval), every
 * reason a rate is not VALID, the method and the environment. Pure: same
 * record, same text.
 */
import { unavailableLines } from '../../../reports/unavailable-text.js';
import type { LoadRunRecord, LoadSummary } from './load-results.js';
import { formatDuration, formatPercent, formatRate, formatTimestamp } from '../../core/units.js';
import { goalText } from './latency-goal.js';
import { banner, fitLines, paint, type Style, type TableCell, type TableRow, wrap, wrapHanging } from '../../../reports/text-table.js';
import { fitNote, fittedRows } from '../../../reports/fitted-table.js';
import { fitReport, HEADER_WIDTH, layoutWidth, type ScreenReportOptions } from '../../../reports/report-layout.js';
import { ReportViewRegistry } from '../../../reports/report-view-registry.js';
import { notCompletedLine, notRunLine, reasonsInFull, screenHeader, showHint, verdictCountLine, viewsHint } from '../../../reports/screen-lines.js';
import { loadAnswerLines } from './load-answer.js';
import { batchSizesText, chartPercentile, cutProbes, engineLabel, loadFailedCells, percentileOf, loadPeakRows, loadRateRows, loadSettingsView, type LoadRateRow } from './load-views.js';

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

/** The compact table's columns: who, the rate asked and achieved, p50 and p99, the goal and the verdict. */
const COMPACT_RATE_COLUMNS: ReadonlySet<string> = new Set(['engine', 'threads', 'rate', 'offered', 'achieved', 'p50', 'p99', 'verdict']);

/**
 * LATENCY UNDER LOAD: every engine × rate with every column, or with
 * `compact` the one-screen table: the columns above, and only the rates
 * asked for when a peak search added rates of its own (the peak view lists those).
 */
function loadTable(run: LoadRunRecord, color: boolean, minWidth: number, maxWidth: number, compact = false) {
  const all = loadRateRows(run);
  const rows = compact && all.some((r) => r.purpose !== 'rate') ? all.filter((r) => r.purpose.split('+').includes('rate')) : all;
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
  const columns = [
    ...IDENTITY,
    { header: 'offered', align: 'right' as const },
    { header: 'achieved', align: 'right' as const },
    { header: 'p50', align: 'right' as const, dropOrder: 8 },
    { header: 'p90', align: 'right' as const, dropOrder: 1 },
    { header: 'p95', align: 'right' as const, dropOrder: 2 },
    { header: 'p99', align: 'right' as const },
    { header: 'p99.9', align: 'right' as const, dropOrder: 3 },
    { header: 'queue mean', align: 'right' as const, dropOrder: 5 },
    { header: 'queue p99', align: 'right' as const, dropOrder: 4 },
    { header: 'batches (size:calls)', align: 'left' as const, dropOrder: 6 },
    ...(slo ? [{ header: 'goodput', align: 'right' as const }, { header: `over ${slo.limitMs} ms`, align: 'right' as const }] : []),
    { header: 'rounds', align: 'right' as const, dropOrder: 7 },
    { header: 'verdict', align: 'left' as const },
  ];
  const keep = compact ? columns.map((c) => COMPACT_RATE_COLUMNS.has(c.header) || (slo !== null && c.header === `over ${slo.limitMs} ms`)) : columns.map(() => true);
  return fittedRows({
    title: compact ? 'LATENCY UNDER LOAD – per engine and rate asked (req/s)' : 'LATENCY UNDER LOAD – per engine and offered rate (req/s)',
    columns: columns.filter((_, i) => keep[i]),
    rows: tableRows.map((r) => ({ ...r, cells: r.rest === undefined ? r.cells.filter((_, i) => keep[i]) : r.cells })),
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

/** PEAK RATE; with `compact` (the one screen) without the per-round intervals and the probe count. */
function peakTable(run: LoadRunRecord, color: boolean, minWidth: number, maxWidth: number, compact = false) {
  const peaks = loadPeakRows(run);
  if (peaks.length === 0) return null;
  const keep = (header: string): boolean => !compact || (header !== 'per round' && header !== 'probes');
  return fittedRows({
    title: `PEAK RATE – highest rate meeting ${goalText(loadSettingsView(run).slo ?? { percentile: 99, limitMs: 0 })} as a VALID probe`,
    columns: [
      { header: 'engine', align: 'left' as const, whole: true },
      { header: 'peak (req/s)', align: 'right' as const },
      { header: 'interval: last pass – first fail', align: 'left' as const, dropOrder: 4 },
      { header: '95% CI across rounds', align: 'left' as const, dropOrder: 3 },
      { header: 'per round', align: 'left' as const, dropOrder: 1 },
      { header: 'probes', align: 'right' as const, dropOrder: 2 },
    ].filter((c) => keep(c.header)),
    rows: peaks.map((p): TableRow => ({
      cells: ([
        { text: p.label, style: 'cyan' },
        // The peak column is never dropped, so an interrupted search is said here, at every width.
        { text: `${p.peakRps === null ? 'none' : formatRate(p.peakRps, '')}${p.interval.interrupted ? ' (interrupted)' : ''}`, style: 'bold' },
        intervalText(p.interval),
        p.ci95 ? `${rps(p.ci95.low)} – ${rps(p.ci95.high)}` : p.rounds.length > 1 ? 'n/a' : 'one round',
        p.rounds.map((r) => (r.lastPass === null ? `none ≥ ${rps(r.firstFail)}` : `${rps(r.lastPass)}–${r.firstFail === null ? '∞' : rps(r.firstFail)}`)).join(', '),
        String(p.probes),
      ] satisfies TableCell[]).slice(0, compact ? 4 : 6),
    })),
    color,
    minWidth: Math.min(minWidth, maxWidth),
    maxWidth,
  });
}

/** The most engine × rate rows the one screen lists one by one; more become a grid (rateGrid). */
const SCREEN_ROWS = 12;

/**
 * The one screen's rate table for many engines × rates: a row per engine,
 * a column per rate asked, each the goal's percentile (p99 without a goal)
 * marked ✓ or ✗ as the full table marks it (the verdict word when it is not
 * VALID); later rates give way first when the terminal is narrow.
 */
function rateGrid(run: LoadRunRecord, color: boolean, maxWidth: number) {
  const rows = loadRateRows(run).filter((r) => r.purpose.split('+').includes('rate'));
  const rates = [...new Set(rows.map((r) => r.targetRps))].sort((a, b) => a - b);
  const labels = [...new Set(rows.map((r) => r.label))];
  const p = chartPercentile(run);
  const cellOf = (row: LoadRateRow | undefined): TableCell => {
    if (row === undefined) return '–';
    const s = row.summary;
    const mark = row.passed === null ? '' : row.passed ? ' ✓' : ' ✗';
    const word = s.verdict.status === 'VALID' ? '' : ` ${s.verdict.status}`;
    return { text: `${latency(s, percentileOf(s, p))}${mark}${word}`, style: VERDICT_STYLE[s.verdict.status] };
  };
  const tableRows: TableRow[] = labels.map((label) => ({
    cells: [{ text: label, style: 'cyan' }, ...rates.map((rate) => cellOf(rows.find((r) => r.label === label && r.targetRps === rate)))],
  }));
  return fittedRows({
    title: `LATENCY UNDER LOAD – p${p} per engine and rate asked (req/s)`,
    columns: [{ header: 'engine', align: 'left' as const, whole: true }, ...rates.map((rate, i) => ({ header: `p${p} @ ${formatRate(rate, '')}`, align: 'left' as const, ...(i > 0 ? { dropOrder: rates.length - i } : {}) }))],
    rows: tableRows,
    color,
    minWidth: 0,
    maxWidth,
  });
}

/** Options of this report: those of every one-screen report (report-layout.ts). */
export type LoadReportOptions = ScreenReportOptions;

/** The run's settings and what each figure is: the method view, and the header of --details. */
function methodLines(run: LoadRunRecord, prose: number): string[] {
  const s = loadSettingsView(run);
  const arrivals = s.arrival === 'gamma' ? `gamma (burstiness ${s.burstiness})` : s.arrival;
  return [
    ...wrap(
      `open loop: ${arrivals} arrivals drawn in advance (seed ${s.seed}); each rate: ${s.warmupMs / 1000} s of warm-up arrivals, then at least ${s.durationMs / 1000} s and ${s.minQueries} requests measured; ` +
        `batcher: ${s.maxBatch > 1 ? `up to ${s.maxBatch} requests, waiting at most ${s.maxWaitMs} ms` : 'one request per engine call'}; ` +
        `${s.slo ? `goal ${goalText(s.slo)}; ` : ''}${s.rounds} round${s.rounds === 1 ? '' : 's'}, each a fresh load`,
      prose,
    ),
    ...wrap('latency = completion − scheduled arrival (never from pickup), percentiles by linear interpolation (numpy default) over every measured request; ≥: a lower bound, requests were unfinished; VALID: minimum duration and requests met, achieved within 2% of offered, queue not growing', prose),
  ];
}

/** The model, the machine and the engines not run here, in full. */
function environmentLines(run: LoadRunRecord, prose: number): string[] {
  const env = run.environment;
  return [
    ...run.models.flatMap((m) => fitLines([`model: ${m.name} (${m.source})`], prose)),
    ...unavailableLines(run, prose),
    ...wrap(`${env.cpuModel}, ${env.cores} cores · ${env.gpus.length > 0 ? env.gpus.join('; ') : 'no GPU'} · node ${env.node} · ${formatTimestamp(env.date)}`, prose),
  ];
}

/** Every rate that is not VALID with its reasons, and the probes a stop cut short. */
function verdictNotes(run: LoadRunRecord, width: number): string[] {
  const notes = loadRateRows(run)
    .filter((r) => r.summary.verdict.status !== 'VALID')
    .flatMap((r) => wrapHanging(`${r.summary.verdict.status} ${r.label} at ${formatRate(r.targetRps, ' req/s')}: ${r.summary.verdict.reasons.join('; ')}`, width));
  const cut = cutProbes(run).flatMap(({ label, probe }) => wrapHanging(`left out: ${label} at ${formatRate(probe.targetRps, ' req/s')}, ${probe.endedEarly} (kept in results.json and the CSV, no evidence in the tables, charts or comparisons)`, width));
  return [...notes, ...cut];
}

type Fitted = NonNullable<ReturnType<typeof peakTable>>;
const withNote = (t: Fitted | null, width: number): string[] => (t === null ? [] : [...t.lines, ...fitNote(t, width)]);

/**
 * The views of a load run: each table --details prints, in order, and
 * `inferbench show ID --view NAME` prints alone. sectionWidth is the widest
 * table's, so the tables of --details line up.
 */
export const LOAD_VIEWS = new ReportViewRegistry<LoadRunRecord>('load');
LOAD_VIEWS.register({ name: 'environment', about: 'model, machine and the engines not run here', render: (c) => environmentLines(c.run, Math.min(c.width, HEADER_WIDTH)) });
LOAD_VIEWS.register({ name: 'method', about: 'arrivals, batcher, goal and rounds, and what each figure is', render: (c) => methodLines(c.run, Math.min(c.width, HEADER_WIDTH)) });
LOAD_VIEWS.register({ name: 'rates', about: 'every engine at every rate: offered, achieved, latency percentiles, queue wait, batches, goodput, verdict', render: (c) => withNote(loadTable(c.run, c.color, c.sectionWidth, c.width), c.width) });
LOAD_VIEWS.register({ name: 'time-per-request', about: "where a request's time went: queue wait, tokenize+collate, engine, post-process", render: (c) => withNote(partsTable(c.run, c.color, c.sectionWidth, c.width), c.width) });
LOAD_VIEWS.register({ name: 'peak', about: "each engine's peak rate meeting the goal, its interval, 95% CI and rounds", render: (c) => withNote(peakTable(c.run, c.color, c.sectionWidth, c.width), c.width) });
LOAD_VIEWS.register({ name: 'verdicts', about: 'why each rate that is not VALID is not, and the probes a stop cut short', render: (c) => verdictNotes(c.run, c.width) });
LOAD_VIEWS.register({ name: 'reasons', about: 'each engine that did not complete, with its whole reason', render: (c) => reasonsInFull(c.run.cells, (cell) => engineLabel(c.run, cell), Math.min(c.width, HEADER_WIDTH)) });

/** The widths the views of one run are laid out at: the terminal's, and the widest full table's. */
function loadViewContext(run: LoadRunRecord, options: LoadReportOptions) {
  const color = options.color === true;
  const width = layoutWidth(options, HEADER_WIDTH);
  const widths = [loadTable(run, false, 0, width), partsTable(run, false, 0, width), peakTable(run, false, 0, width)].flatMap((t) => (t === null ? [] : [t.width]));
  return { run, width, sectionWidth: Math.max(0, ...widths), color };
}

/** One view alone (`inferbench show ID --view NAME`); an unknown name is a UserError naming the views. */
export function renderLoadView(run: LoadRunRecord, name: string, options: LoadReportOptions = {}): string {
  const c = loadViewContext(run, options);
  return fitReport(LOAD_VIEWS.renderOne(name, c), options, c.width).join('\n');
}

/** "Verdicts: 5 of 6 rates VALID, 1 overloaded; …": the rate rows' verdicts and, with a goal, how many met it. */
function loadVerdictLine(run: LoadRunRecord, width: number, color: boolean, historyId: number | null | undefined): string[] {
  const rows = loadRateRows(run);
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.summary.verdict.status, (counts.get(r.summary.verdict.status) ?? 0) + 1);
  const sorted = new Map([...counts].sort((a, b) => (a[0] === 'VALID' ? -1 : b[0] === 'VALID' ? 1 : b[1] - a[1])));
  const goal = loadSettingsView(run).slo;
  const met = rows.filter((r) => r.passed === true).length;
  const hint = `${goal ? `${met} met ${goalText(goal)}; ` : ''}${showHint(run, sorted.size > 1 || cutProbes(run).length > 0 ? 'verdicts' : 'rates', historyId)}`;
  return verdictCountLine(sorted, rows.length, 'rate', width, color, hint);
}

/**
 * The report: one screen by default (the header, the answer, one compact
 * table, one line each for verdicts, cells not completed and the engines not
 * run here, and the views), or with `details` every view in order, as the
 * report was before it fit one screen.
 */
export function renderLoadReport(run: LoadRunRecord, options: LoadReportOptions = {}): string {
  const c = loadViewContext(run, options);
  const { width: maxWidth, color } = c;
  const prose = Math.min(maxWidth, HEADER_WIDTH);
  if (options.details === true) {
    // The header's views run on under the banner; a blank line before each table and the notes, as before.
    const views = LOAD_VIEWS.detailViews().flatMap((v) => {
      const lines = v.render(c);
      return lines.length === 0 ? [] : v.name === 'environment' || v.name === 'method' ? lines : ['', ...lines];
    });
    const lines = [banner('LATENCY UNDER LOAD', prose, color), ...views];
    return fitReport(lines, options, maxWidth).join('\n').trimEnd();
  }
  const answer = loadAnswerLines(run, prose, color);
  const asked = loadRateRows(run).some((r) => r.purpose.split('+').includes('rate'));
  // The answer lists each peak with its interval (and its CI across rounds): the peak table joins it only when it is the one table.
  const peaks = asked ? null : peakTable(run, color, 0, maxWidth, true);
  const askedRows = loadRateRows(run).filter((r) => r.purpose.split('+').includes('rate')).length;
  // Many engines at several rates (10 × 3 is 30 rows) would not leave the screen room: a row per engine, a column per rate.
  const rates = peaks === null || asked ? (askedRows > SCREEN_ROWS ? rateGrid(run, color, maxWidth) : loadTable(run, color, peaks?.width ?? 0, maxWidth, true)) : null;
  const id = options.historyId;
  const lines = [
    ...screenHeader(run, 'load', prose, color),
    '',
    ...(answer.length > 0 ? [...answer, ''] : []),
    ...withNote(peaks, maxWidth),
    ...(peaks !== null && rates !== null ? [''] : []),
    ...withNote(rates, maxWidth),
    ...wrap('latency: completion − scheduled arrival, over every measured request; VALID: achieved within 2% of offered, queue not growing.', prose).map((l) => paint(l, 'dim', color)),
    '',
    ...loadVerdictLine(run, prose, color, id),
    ...notCompletedLine(run.cells, prose, color, showHint(run, 'reasons', id)),
    ...notRunLine(run, prose),
    ...viewsHint(run, LOAD_VIEWS.names(), prose, id),
  ];
  return fitReport(lines, options, maxWidth).join('\n').trimEnd();
}
