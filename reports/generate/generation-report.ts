/**
 * Terminal report of `inferbench generate`: time to first token, time per
 * output token, and throughput with peak memory, one table each, in the
 * layout of the classification report. Pure: same record, same text.
 */
import { unavailableLines } from '../unavailable-text.js';
import type { CompletedGenerationCell, GenerationCell, GenerationRunRecord } from '../../src/core/generation-results.js';
import type { BetweenRounds } from '../../src/core/results.js';
import type { SampleStatistics } from '../../src/core/statistics.js';
import { banner, type Column, fitLines, type TableCell, wrap } from '../text-table.js';
import { type CellColumn, cellTable, fitNote, STATE_STYLE } from '../fitted-table.js';
import { fitReport, HEADER_WIDTH, layoutWidth, type ReportLayout } from '../report-layout.js';
import { formatBytes, formatDuration, formatDurationRange, formatRate, formatTimestamp } from '../../src/core/units.js';


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

/** The header, the three tables and the notes, as one string. */
export function renderGenerationReport(run: GenerationRunRecord, options: { color?: boolean } & ReportLayout = {}): string {
  const color = options.color === true;
  const maxWidth = layoutWidth(options, HEADER_WIDTH);
  const prose = Math.min(maxWidth, HEADER_WIDTH);
  const env = run.environment;
  const model = run.models[0];
  const header = [
    banner('TEXT GENERATION', prose, color),
    ...fitLines([`model: ${model?.name ?? '?'} (${model?.source ?? '?'})`], prose),
    ...(model?.notes ?? []).flatMap((n) => wrap(`note: ${n}`, prose)),
    ...unavailableLines(run, prose),
    ...wrap(`${env.cpuModel}, ${env.cores} cores · ${env.gpus.length > 0 ? env.gpus.join('; ') : 'no GPU'} · node ${env.node} · ${formatTimestamp(env.date)}`, prose),
    ...wrap(`TTFT = time to first token (prefill + first sample); TPOT = time per later output token; ${String(run.config['fixedLength']) === 'false' ? 'output length may stop at EOS' : 'output length fixed (minNewTokens = maxNewTokens)'}`, prose),
    ...wrap(
      'mean and percentiles over every measured call (TTFT) or later token (TPOT) of every round; 95% CI across rounds = interval of the mean of round means, ' +
        "each round a fresh engine load; verdict by run's rule on both (CI within ±5% of the mean, CV within 100%)",
      prose,
    ),
  ];
  const tables = (minWidth: number) => [
    table('TIME TO FIRST TOKEN', run, percentileColumns((c) => c.ttft, (c) => c.betweenRounds?.ttft), color, minWidth, maxWidth),
    table('TIME PER OUTPUT TOKEN', run, percentileColumns((c) => c.tpot, (c) => c.betweenRounds?.tpot), color, minWidth, maxWidth),
    table('THROUGHPUT AND PEAK MEMORY', run, THROUGHPUT_COLUMNS, color, minWidth, maxWidth),
  ];
  // Rendered twice so the three tables share the widest one's width and line up.
  const blocks = tables(Math.max(...tables(0).map((t) => t.width)));
  const noisy = orderedGenerationCells(run).filter((c): c is CompletedGenerationCell => c.state === 'completed' && c.verdict?.status === 'NOISY');
  const notes = noisy.flatMap((c) => {
    const warnings = c.verdict?.warnings ?? [];
    return wrap(`NOISY ${c.engine} batch ${c.batchSize} prompt ${c.promptLength} new ${c.newTokens}: ${c.verdict?.reasons.join('; ') ?? ''}${warnings.length > 0 ? ` (${warnings.join('; ')})` : ''}`, Math.min(maxWidth, 120));
  });
  const lines = [...header, '', ...blocks.flatMap((b) => [...b.lines, ...fitNote(b, maxWidth), '']), ...notes];
  return fitReport(lines, options, maxWidth).join('\n').trimEnd();
}
