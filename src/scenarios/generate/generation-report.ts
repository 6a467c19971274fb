/**
 * Terminal report of `inferbench generate`. By default one screen (as
 * run's, issue 47): the answer (per configuration, the engine with the
 * lowest TTFT and TPOT with its lead and whether the rounds support it,
 * and the highest decode tokens/s), one compact table, one line each for
 * verdicts, cells not completed and the engines not run here. Every table
 * is a view (GENERATE_VIEWS) that --details prints in order and
 * `inferbench show ID --view NAME` alone: time to first token, time per
 * output token, throughput with peak memory, the NOISY reasons, the method
 * and the environment. Pure: same record, same text.
 */
import { unavailableLines } from '../../../reports/unavailable-text.js';
import type { CompletedGenerationCell, GenerationCell, GenerationRunRecord } from './generation-results.js';
import type { BetweenRounds } from '../../core/results.js';
import type { SampleStatistics } from '../../core/statistics.js';
import { banner, type Column, fitLines, paint, type TableCell, wrap } from '../../../reports/text-table.js';
import { ReportViewRegistry } from '../../../reports/report-view-registry.js';
import { notCompletedLine, notRunLine, reasonsInFull, screenHeader, showHint, verdictCountLine, viewsHint } from '../../../reports/screen-lines.js';
import { generationAnswerLines } from './generation-answer.js';
import { generationScreenTable } from './generation-screen-table.js';
import { type CellColumn, cellTable, fitNote, STATE_STYLE } from '../../../reports/fitted-table.js';
import { fitReport, HEADER_WIDTH, layoutWidth, type ScreenReportOptions } from '../../../reports/report-layout.js';
import { formatBytes, formatDuration, formatDurationRange, formatRate, formatTimestamp } from '../../core/units.js';

type ReportColumn = CellColumn<CompletedGenerationCell>;

/** Cells in sweep order of engines, then batch size, prompt length and new tokens. */
export function orderedGenerationCells(run: GenerationRunRecord): GenerationCell[] {
  const engines: string[] = [];
  for (const c of run.cells) if (!engines.includes(c.engine)) engines.push(c.engine);
  return [...run.cells].sort(
    (a, b) =>
      a.batchSize - b.batchSize ||
      a.promptLength - b.promptLength ||
      a.newTokens - b.newTokens ||
      engines.indexOf(a.engine) - engines.indexOf(b.engine),
  );
}

function identity(cell: GenerationCell): TableCell[] {
  const session = cell.state === 'skipped' ? undefined : cell.session;
  const threads = session ? (session.threads === null ? 'default' : String(session.threads)) : cell.requestedThreads === null ? '–' : String(cell.requestedThreads);
  return [
    { text: cell.engine, style: 'cyan' },
    session?.backend ?? '–',
    threads,
    String(cell.batchSize),
    String(cell.promptLength),
    String(cell.newTokens),
    { text: cell.state, style: STATE_STYLE[cell.state] },
  ];
}

const IDENTITY_COLUMNS: readonly (Column & { readonly dropOrder?: number })[] = [
  // Whole: a cut engine name could make two rows read as one.
  { header: 'engine', align: 'left', whole: true },
  { header: 'backend', align: 'left', dropOrder: 6 },
  { header: 'threads', align: 'right' },
  { header: 'batch', align: 'right' },
  { header: 'prompt', align: 'right' },
  { header: 'new', align: 'right' },
  { header: 'state', align: 'left' },
];

/** `4.1 – 4.6 ms` across rounds, '–' with one round (or a record from before rounds). */
function intervalText(rounds: BetweenRounds | null | undefined): string {
  return rounds?.ci95 ? formatDurationRange(rounds.ci95.low, rounds.ci95.high) : '–';
}

/** VALID or NOISY by run's rule (Ctrl-C-cut cells say so); '–' for records from before rounds. */
function verdictCell(c: CompletedGenerationCell): TableCell {
  if (!c.verdict) return '–';
  return { text: `${c.verdict.status}${c.interrupted ? ' (interrupted)' : ''}`, style: c.verdict.status === 'VALID' ? 'green' : 'yellow' };
}

function percentileColumns(
  pick: (c: CompletedGenerationCell) => SampleStatistics | null,
  rounds: (c: CompletedGenerationCell) => BetweenRounds | null | undefined,
): ReportColumn[] {
  const f = (g: (s: SampleStatistics) => number) => (c: CompletedGenerationCell) => {
    const s = pick(c);
    return s ? formatDuration(g(s)) : 'n/a';
  };
  return [
    { header: 'mean', align: 'right', value: (c) => ({ text: f((s) => s.mean)(c), style: 'bold' }) },
    { header: '95% CI across rounds', align: 'right', value: (c) => intervalText(rounds(c)) },
    { header: 'rounds', align: 'right', dropOrder: 4, value: (c) => String(rounds(c)?.rounds ?? 1) },
    { header: 'p50', align: 'right', dropOrder: 5, value: f((s) => s.p50) },
    { header: 'p90', align: 'right', dropOrder: 1, value: f((s) => s.p90) },
    { header: 'p99', align: 'right', dropOrder: 2, value: f((s) => s.p99) },
    { header: 'n', align: 'right', dropOrder: 3, value: (c) => String(pick(c)?.count ?? 0) },
    { header: 'verdict', align: 'left', value: verdictCell },
  ];
}

const THROUGHPUT_COLUMNS: readonly ReportColumn[] = [
  { header: 'decode', align: 'right', value: (c) => ({ text: c.decodeTokensPerSecond === null ? 'n/a' : formatRate(c.decodeTokensPerSecond, ' tok/s'), style: 'bold' }) },
  { header: 'prefill', align: 'right', dropOrder: 3, value: (c) => formatRate(c.prefillTokensPerSecond, ' tok/s') },
  { header: 'peak RSS', align: 'right', dropOrder: 4, value: (c) => formatBytes(c.peakRssBytes) },
  { header: 'peak GPU', align: 'right', dropOrder: 1, value: (c) => (c.peakGpuBytes === null ? '–' : formatBytes(c.peakGpuBytes)) },
  { header: 'early EOS', align: 'right', dropOrder: 2, value: (c) => String(c.earlyStops) },
];

function table(title: string, run: GenerationRunRecord, columns: readonly ReportColumn[], color: boolean, minWidth: number, maxWidth: number) {
  return cellTable<GenerationCell, CompletedGenerationCell>({
    title,
    identity: IDENTITY_COLUMNS,
    identityCells: identity,
    columns,
    cells: orderedGenerationCells(run),
    done: (cell): cell is CompletedGenerationCell => cell.state === 'completed',
    reason: (cell) => (cell.state === 'completed' ? '' : { text: cell.reason, style: STATE_STYLE[cell.state] }),
    ruleAbove: (cell, previous) => previous.batchSize !== cell.batchSize || previous.promptLength !== cell.promptLength || previous.newTokens !== cell.newTokens,
    color,
    minWidth,
    maxWidth,
  });
}

/** Options of this report: those of every one-screen report (report-layout.ts). */
export type GenerationReportOptions = ScreenReportOptions;

/** The model, its notes, the engines not run here and the machine, in full. */
function environmentLines(run: GenerationRunRecord, prose: number): string[] {
  const env = run.environment;
  const model = run.models[0];
  return [
    ...fitLines([`model: ${model?.name ?? '?'} (${model?.source ?? '?'})`], prose),
    ...(model?.notes ?? []).flatMap((n) => wrap(`note: ${n}`, prose)),
    ...unavailableLines(run, prose),
    ...wrap(`${env.cpuModel}, ${env.cores} cores · ${env.gpus.length > 0 ? env.gpus.join('; ') : 'no GPU'} · node ${env.node} · ${formatTimestamp(env.date)}`, prose),
  ];
}

/** What TTFT, TPOT, the interval and the verdict are. */
function methodLines(run: GenerationRunRecord, prose: number): string[] {
  return [
    ...wrap(`TTFT = time to first token (prefill + first sample); TPOT = time per later output token; ${String(run.config['fixedLength']) === 'false' ? 'output length may stop at EOS' : 'output length fixed (minNewTokens = maxNewTokens)'}`, prose),
    ...wrap(
      'mean and percentiles over every measured call (TTFT) or later token (TPOT) of every round; 95% CI across rounds = interval of the mean of round means, ' +
        "each round a fresh engine open; verdict by run's rule on both (CI within ±5% of the mean, CV within 100%)",
      prose,
    ),
  ];
}

/** Each NOISY cell with its reasons and host warnings. */
function noiseLines(run: GenerationRunRecord, width: number): string[] {
  const noisy = orderedGenerationCells(run).filter((c): c is CompletedGenerationCell => c.state === 'completed' && c.verdict?.status === 'NOISY');
  return noisy.flatMap((c) => {
    const warnings = c.verdict?.warnings ?? [];
    return wrap(`NOISY ${c.engine} batch ${c.batchSize} prompt ${c.promptLength} new ${c.newTokens}: ${c.verdict?.reasons.join('; ') ?? ''}${warnings.length > 0 ? ` (${warnings.join('; ')})` : ''}`, Math.min(width, 120));
  });
}

const TTFT_COLUMNS = percentileColumns((c) => c.ttft, (c) => c.betweenRounds?.ttft);
const TPOT_COLUMNS = percentileColumns((c) => c.tpot, (c) => c.betweenRounds?.tpot);
type Fitted = ReturnType<typeof table>;
const withNote = (t: Fitted, width: number): string[] => [...t.lines, ...fitNote(t, width)];

/**
 * The views of a generation run: each table --details prints, in order,
 * and `inferbench show ID --view NAME` prints alone.
 */
export const GENERATE_VIEWS = new ReportViewRegistry<GenerationRunRecord>('generate');
GENERATE_VIEWS.register({ name: 'environment', about: 'model, machine and the engines not run here', render: (c) => environmentLines(c.run, Math.min(c.width, HEADER_WIDTH)) });
GENERATE_VIEWS.register({ name: 'method', about: 'what TTFT, TPOT, the 95% CI and the verdict are', render: (c) => methodLines(c.run, Math.min(c.width, HEADER_WIDTH)) });
GENERATE_VIEWS.register({ name: 'ttft', about: 'time to first token: mean, 95% CI across rounds, percentiles, verdict', render: (c) => withNote(table('TIME TO FIRST TOKEN', c.run, TTFT_COLUMNS, c.color, c.sectionWidth, c.width), c.width) });
GENERATE_VIEWS.register({ name: 'tpot', about: 'time per output token: mean, 95% CI across rounds, percentiles, verdict', render: (c) => withNote(table('TIME PER OUTPUT TOKEN', c.run, TPOT_COLUMNS, c.color, c.sectionWidth, c.width), c.width) });
GENERATE_VIEWS.register({ name: 'throughput', about: 'decode and prefill tokens/s, peak RSS and GPU memory, early EOS', render: (c) => withNote(table('THROUGHPUT AND PEAK MEMORY', c.run, THROUGHPUT_COLUMNS, c.color, c.sectionWidth, c.width), c.width) });
GENERATE_VIEWS.register({ name: 'noise', about: 'why cells are NOISY, and the warnings of busy hosts', render: (c) => noiseLines(c.run, c.width) });
GENERATE_VIEWS.register({ name: 'reasons', about: 'each cell that did not complete, with its whole reason', render: (c) => reasonsInFull(orderedGenerationCells(c.run), (cell) => `${cell.engine} batch ${cell.batchSize} prompt ${cell.promptLength} new ${cell.newTokens}`, Math.min(c.width, HEADER_WIDTH)) });

/** The widths the views of one run are laid out at: the terminal's, and the widest full table's, so the tables line up. */
function generationViewContext(run: GenerationRunRecord, options: GenerationReportOptions) {
  const width = layoutWidth(options, HEADER_WIDTH);
  const widths = [TTFT_COLUMNS, TPOT_COLUMNS, THROUGHPUT_COLUMNS].map((columns) => table('', run, columns, false, 0, width).width);
  return { run, width, sectionWidth: Math.max(...widths), color: options.color === true };
}

/** One view alone (`inferbench show ID --view NAME`); an unknown name is a UserError naming the views. */
export function renderGenerationView(run: GenerationRunRecord, name: string, options: GenerationReportOptions = {}): string {
  const c = generationViewContext(run, options);
  return fitReport(GENERATE_VIEWS.renderOne(name, c), options, c.width).join('\n');
}

/**
 * The report: one screen by default (the header, the answer per
 * configuration, one compact table of the completed cells, one line each for
 * verdicts, cells not completed and the engines not run here, and the
 * views), or with `details` every view in order, as the report was before
 * it fit one screen.
 */
export function renderGenerationReport(run: GenerationRunRecord, options: GenerationReportOptions = {}): string {
  const c = generationViewContext(run, options);
  const { width: maxWidth, color } = c;
  const prose = Math.min(maxWidth, HEADER_WIDTH);
  if (options.details === true) {
    // The header's views run on under the banner; a blank line before each table and the notes, as before.
    const views = GENERATE_VIEWS.detailViews().flatMap((v) => {
      const lines = v.render(c);
      return lines.length === 0 ? [] : v.name === 'environment' || v.name === 'method' ? lines : ['', ...lines];
    });
    return fitReport([banner('TEXT GENERATION', prose, color), ...views], options, maxWidth).join('\n').trimEnd();
  }
  const id = options.historyId;
  const done = orderedGenerationCells(run).filter((cell): cell is CompletedGenerationCell => cell.state === 'completed');
  const screen = generationScreenTable(done, color, maxWidth);
  const answer = generationAnswerLines(run, prose, color);
  const counts = new Map<string, number>();
  for (const cell of done) if (cell.verdict) counts.set(cell.verdict.status, (counts.get(cell.verdict.status) ?? 0) + 1);
  const sorted = new Map([...counts].sort((a, b) => (a[0] === 'VALID' ? -1 : b[0] === 'VALID' ? 1 : 0)));
  const lines = [
    ...screenHeader(run, 'generate', prose, color),
    '',
    ...(answer.length > 0 ? [...answer, ''] : []),
    ...(done.length > 0 ? withNote(screen, maxWidth) : []),
    ...(done.length > 0 ? wrap(`TTFT: to first token; TPOT: per later token; means of all calls${new Set(done.map((cell) => cell.promptLength)).size > 1 ? `; p${done[0]?.promptLength ?? ''}: a ${done[0]?.promptLength ?? ''}-token prompt${new Set(done.map((cell) => cell.newTokens)).size > 1 ? `, n${done[0]?.newTokens ?? ''}: ${done[0]?.newTokens ?? ''} new tokens` : ''}` : ''}.`, prose).map((l) => paint(l, 'dim', color)) : []),
    '',
    ...verdictCountLine(sorted, done.length, 'completed cell', prose, color, showHint(run, counts.has('NOISY') ? 'noise' : 'ttft', id)),
    ...notCompletedLine(run.cells, prose, color, showHint(run, 'reasons', id)),
    ...notRunLine(run, prose),
    ...viewsHint(run, GENERATE_VIEWS.names(), prose, id),
  ];
  return fitReport(lines, options, maxWidth).join('\n').trimEnd();
}
