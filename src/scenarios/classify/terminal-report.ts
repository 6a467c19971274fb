/**
 * The report printed at the end of a run: one screen that opens with the
 * answer (the fastest engine per batch size), then one compact speed table
 * and one line each for parity, verdicts and the engines not run here;
 * every other table is a named view (report-views.ts) that `--details`
 * prints in order and `inferbench show ID --view NAME` prints alone. Laid
 * out like the Hugging Face transformers benchmark (titled tables,
 * environment block) with mitata's `avg (min … max)` and `p99` columns.
 * Pure: same RunRecord, same text.
 */
import { nothingMeasured } from '../../core/nothing-measured.js';
import type { RunRecord } from '../../core/results.js';
import { PERCENTILE_METHOD } from '../../core/statistics.js';
import { DEFAULT_BATCH_SIZES, DEFAULT_ROWS, FULL_SWEEP_BATCH_SIZES, FULL_SWEEP_ROWS } from '../../core/stop-rule.js';
import { engineOrder, formatVersions, orderedCells, sessionOf } from '../../../reports/run-summary.js';
import { hasSequenceLengths } from '../../../reports/variant-summary.js';
import { banner, paint, wrap } from '../../../reports/text-table.js';
import { fitReport, HEADER_WIDTH, layoutWidth, type ReportLayout } from '../../../reports/report-layout.js';
import { formatBytes, formatTimestamp } from '../../core/units.js';
import { energySection } from './terminal-energy-section.js';
import { profileSection } from './terminal-profile-section.js';
import { coldStartSection, memoryDetailSection, paritySection, parityWarningLines, scalingSections, statisticsSection, verdictLines } from './terminal-views.js';
import { placementLine } from '../../../reports/placement-text.js';
import { unavailableLines } from '../../../reports/unavailable-text.js';
import { browserLines } from './browser-text.js';
import { answerLines, comparisonLines } from './comparison-lines.js';
import { quantizationTable } from './quantization-table.js';
import { hostSections } from '../../../reports/host-views.js';
import { speedFootnotes, speedTable } from './speed-table.js';
import { STATE_STYLE } from '../../../reports/fitted-table.js';
import { stsSection } from './sts-table.js';
import { optionLines } from './options-lines.js';
import { cellNamer, groupByReason } from '../../../reports/cell-names.js';
import { memoryTable, modelSizeTable } from './terminal-memory-size.js';
import { registerReportView, reportView, reportViews, type ReportView, type ViewContext } from './report-views.js';
import { parityLine, showCommand, verdictLine } from './summary-lines.js';
import { unavailableSummary } from '../../../reports/screen-lines.js';

/** `width` and `wide` as every terminal report takes them (report-layout.ts). */
export interface TerminalReportOptions extends ReportLayout {
  /** ANSI colours; off unless asked for, so logs and tests get plain text. */
  readonly color?: boolean;
}

/** Wide enough for every speed column; the CLI passes the terminal's width (terminal-width.ts). */
const DEFAULT_WIDTH = 160;

/** Why cells have no figures, each distinct reason once with the cells it applies to (the speed table cut them short). */
function reasonLines(run: RunRecord, width: number, color: boolean): string[] {
  const name = cellNamer(run);
  const failed = orderedCells(run).flatMap((c) => (c.state === 'completed' ? [] : [c]));
  const lines = ['Reasons in full:'];
  for (const g of groupByReason(failed, (c) => `${c.state}\u0000${c.reason}`, name)) {
    const [state = '', reason = ''] = g.reason.split('\u0000');
    const head = g.cells.length === 1 ? `  ${g.cells[0]} (${state}): ` : `  ${g.cells.length} cells (${state}): `;
    const styledHead = head.replace(`(${state})`, `(${paint(state, STATE_STYLE[state as keyof typeof STATE_STYLE], color)})`);
    // The reason hangs under its head while that leaves it room; under a long cell name it starts on the next line.
    if (width - head.length >= 40) {
      const [first = '', ...rest] = wrap(reason, width - head.length);
      lines.push(styledHead + first, ...rest.map((l) => ' '.repeat(head.length) + l));
    } else lines.push(styledHead.trimEnd(), ...wrap(reason, width - 6).map((l) => `      ${l}`));
    if (g.cells.length > 1) lines.push(...wrap(g.cells.join('; '), width - 6).map((l) => `      ${l}`));
  }
  return lines;
}

/** One line per engine describing what really ran, read from the cells' session descriptions. */
function engineDescriptions(run: RunRecord): string[] {
  return engineOrder(run).flatMap((engine) => {
    const cells = run.cells.filter((c) => c.engine === engine);
    const sessions = cells.map(sessionOf).filter((s) => s !== undefined);
    if (sessions.length === 0) {
      const stopped = cells.find((c) => c.state !== 'completed');
      return `  - ${engine}: not run${stopped?.state === 'skipped' ? ` (skipped: ${stopped.reason})` : ''}`;
    }
    const distinct = (values: string[]): string => [...new Set(values)].join(' / ');
    const versions = distinct(sessions.map((s) => formatVersions(s.versions, ', ')));
    const backend = distinct(sessions.map((s) => s.backend));
    const executors = distinct(sessions.flatMap((s) => (s.executor ? [s.executor] : [])));
    const threads = distinct(sessions.map((s) => (s.threads === null ? 'engine default' : String(s.threads))));
    const precision = distinct(sessions.map((s) => s.precision));
    const notes = [...new Set(sessions.flatMap((s) => s.notes ?? []))];
    const noteText = notes.length > 0 ? ` – ${notes.join('; ')}` : '';
    // Placement as ORT's profiler saw it: the one line that shows GPU rows running nodes on the CPU.
    const placements = [...new Set(sessions.flatMap((s) => (s.placement ? [placementLine(s.placement)] : [])))];
    const page = sessions.find((s) => s.browser !== undefined);
    const pageLines = page?.browser ? browserLines(page.browser, page.threads).map((l) => `      ${l}`) : [];
    return [`  - ${engine}: ${versions} · backend ${backend}${executors ? ` · executor ${executors}` : ''} · threads ${threads} · ${precision}${noteText}`, ...placements.map((p) => `      placement: ${p}`), ...pageLines];
  });
}

function environmentSection(run: RunRecord, width: number, color: boolean): string[] {
  // Every line wraps under its own text: an engine's description runs to hundreds of characters.
  const item = (text: string, indent: string): string[] => wrap(text, width - indent.length - 2).map((l, i) => (i === 0 ? indent + l : `${indent}  ${l}`));
  const env = run.environment;
  const items: [string, string][] = [
    ['inferbench_version', env.inferbenchVersion],
    ['node_version', env.node],
  ];
  const tail: [string, string][] = [
    ['cpu', env.cpuModel],
    ['cpu_cores', String(env.cores)],
    ['ram', formatBytes(env.memoryBytes)],
    ['os', `${env.os} (${env.arch})`],
    ['gpu', env.gpus.length > 0 ? env.gpus.join(', ') : 'none'],
    ['date', formatTimestamp(env.date)],
    ['git_commit', env.gitCommit ?? 'not in a git repository'],
    ['run_id', run.id],
  ];
  const line = ([k, v]: [string, string]): string[] => item(`- ${k}: ${v}`, '');
  return [
    banner('ENVIRONMENT INFORMATION', width, color),
    ...items.flatMap(line),
    '- engines:',
    ...engineDescriptions(run).flatMap((l) => {
      const text = l.trimStart();
      return item(text, l.slice(0, l.length - text.length));
    }),
    ...unavailableLines(run, width),
    ...tail.flatMap(line),
    paint('-'.repeat(width), 'dim', color),
  ];
}

/** Packs `items` into lines joined by ` · `, none longer than `width` unless one item is. */
function pack(items: readonly string[], width: number): string[] {
  const lines: string[] = [];
  for (const item of items) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 3 + item.length <= width) lines[lines.length - 1] = `${last} · ${item}`;
    else lines.push(item);
  }
  return lines;
}

function header(run: RunRecord, width: number, color: boolean): string[] {
  const env = run.environment;
  // A sweep that ended without one completed cell failed, as the history and the exit code say.
  const failed = nothingMeasured(run);
  const state = failed === null ? run.state : `failed: ${failed.allSkipped ? 'every cell was skipped' : 'no cell completed'}`;
  const lines = [
    paint(`inferbench ${env.inferbenchVersion}`, 'bold', color) + `  run ${run.id} (${failed === null ? state : paint(state, 'red', color)})`,
    ...pack(
      [
        `cpu: ${env.cpuModel}`,
        `${env.cores} cores`,
        `ram: ${formatBytes(env.memoryBytes)}`,
        `gpu: ${env.gpus.length > 0 ? env.gpus.join(', ') : 'none'}`,
        `runtime: node ${env.node} (${env.os}, ${env.arch})`,
        `date: ${formatTimestamp(env.date)}`,
      ],
      width,
    ),
  ];
  if (run.state === 'interrupted') {
    const warning = 'warning: the run was interrupted; cells it did not reach are missing from every table';
    lines.push(...wrap(warning, width).map((l) => paint(l, 'yellow', color)));
  }
  return lines;
}

function footnotes(run: RunRecord, width: number): string[] {
  const extra: string[] = [];
  if (hasSequenceLengths(run)) extra.push('"seq": fixed length of synthetic input ids (--sequence-lengths) instead of tokenized dataset text.');
  const asked = run.config['batchSizes'];
  const defaultBatches = Array.isArray(asked) && asked.join(',') === DEFAULT_BATCH_SIZES.join(',');
  const defaultRows = run.config['limit'] === DEFAULT_ROWS;
  if (defaultBatches || defaultRows) {
    const what = [defaultBatches ? `batch sizes ${DEFAULT_BATCH_SIZES.join(' and ')}` : '', defaultRows ? `the first ${DEFAULT_ROWS} rows` : ''].filter((w) => w !== '').join(' over ');
    const full = [`--batch-sizes ${FULL_SWEEP_BATCH_SIZES.join(',')}`, `--limit ${FULL_SWEEP_ROWS}`].join(' ');
    extra.push(`This run used the defaults' ${what}, sized for a default run of at most 90 s on 2 cores; the full sweep is ${full} (browser engines: --engines, see \`inferbench engines\`).`);
  }
  return [
    ...speedFootnotes(run).flatMap((line) => wrap(line, width)),
    ...extra.flatMap((line) => wrap(line, width)),
    ...wrap(`Percentiles (p50, p90, p95, p99): ${PERCENTILE_METHOD}, pooled over every batch of every round.`, width),
    ...wrap(
      '95% CI of mean: across the round means on the log scale, mean × exp(±t·s/(mean·√rounds)) (Student t, rounds − 1 degrees of freedom; each round a fresh open), never below zero, ' +
        'the spread a re-run sees. VALID or NOISY: whether the cell met its stop rule and its rounds agree within ±5%; PARTIAL: no whole pass.',
      width,
    ),
  ];
}

/** `--details` and the history id the one-line summaries point `show` at, besides the layout. */
export interface RunReportOptions extends TerminalReportOptions {
  /** Every view (report-views.ts) after the speed table, as the report was before it fit one screen. */
  readonly details?: boolean;
  /** The history entry's id, for `inferbench show ID --view …`; the run folder's id when not given. */
  readonly historyId?: number | null;
}

/** The speed table's columns on the one-screen report: who, the mean with its interval, samples/s and the verdict. */
const SUMMARY_SPEED_COLUMNS: ReadonlySet<string> = new Set(['model', 'engine', 'threads', 'batch', 'seq', 'check', 'avg', '±95%', 'samples/s', 'vs fp32']);

/** The views --details prints after the speed table, in order; one line each, so a section added later is one line too. */
const SECTION_VIEWS: readonly ReportView[] = [
  { name: 'hosts', about: 'per worker host of a --queue run', render: (c) => hostSections(c.run, c.sectionWidth, c.color) },
  { name: 'latency', about: 'every latency statistic, the 95% CI and the verdict of every cell, with the NOISY reasons', render: (c) => statisticsSection(c.run, c.width, c.sectionWidth, c.color) },
  { name: 'noise', about: 'why cells are NOISY, and the warnings of busy hosts', partOf: 'latency', render: (c) => verdictLines(c.run, c.sectionWidth, c.color) },
  { name: 'scaling', about: 'core and batch-size scaling (show --view core or batch for one)', render: (c) => scalingSections(c.run, c.width, c.sectionWidth, c.color) },
  { name: 'memory', about: 'peak RSS of the timed loop, engine × batch size', render: (c) => memoryTable(c.run, c.sectionWidth, c.width, c.color) },
  { name: 'growth', about: 'memory before the timed loop and its growth during it', render: (c) => memoryDetailSection(c.run, c.width, c.sectionWidth, c.color) },
  { name: 'energy', about: 'energy per pass where a meter read it', render: (c) => energySection(c.run, c.width, c.sectionWidth, c.color) },
  { name: 'cold-start', about: 'open, first batch and first pass of every open', render: (c) => coldStartSection(c.run, c.width, c.sectionWidth, c.color) },
  { name: 'parity', about: 'output parity against the reference and accuracy against labels', render: (c) => paritySection(c.run, c.width, c.sectionWidth, c.color) },
  { name: 'quantization', about: 'precision variants against fp32', render: (c) => quantizationTable(c.run, c.sectionWidth, c.width, c.color) },
  {
    name: 'profile',
    about: 'where the time goes: op classes × engines of the --profile pass, and what lay outside the kernels',
    inSummary: (run) => run.cells.some((cell) => cell.state === 'completed' && cell.profile !== undefined),
    render: (c) => profileSection(c.run, c.width, c.sectionWidth, c.color),
  },
  { name: 'size', about: 'model size on disk, source and notes', render: (c) => modelSizeTable(c.run, c.sectionWidth, c.width, c.color) },
  { name: 'environment', about: 'machine, versions, what each engine ran on, the engines not run here', render: (c) => environmentSection(c.run, c.sectionWidth, c.color) },
  { name: 'legends', about: 'what every column and figure means', render: (c) => footnotes(c.run, c.sectionWidth) },
];

/** The speed view: the whole speed table, the "X× faster" lines, parity warnings, STS and the reasons a narrow table cut short. */
function speedView(c: ViewContext): string[] {
  const speed = speedTable(c.run, c.width, c.color);
  const sts = stsSection(c.run, c.sectionWidth, c.color);
  return [
    ...speed.lines,
    ...comparisonLines(c.run, c.sectionWidth, c.color),
    ...parityWarningLines(c.run, c.sectionWidth, c.color),
    ...(sts.length > 0 ? ['', ...sts] : []),
    ...(speed.truncated ? ['', ...reasonLines(c.run, c.sectionWidth, c.color)] : []),
  ];
}

registerReportView({ name: 'speed', about: 'every speed column of every cell, and each engine against the fastest', render: speedView });
registerReportView({ name: 'sts', about: 'semantic-similarity accuracy of embedding models', inSummary: () => true, partOf: 'speed', render: (c) => stsSection(c.run, c.sectionWidth, c.color) });
for (const view of SECTION_VIEWS) registerReportView(view);

/** The widths every view of one run is laid out at: the terminal's, and the speed table's. */
function viewContext(run: RunRecord, opts: TerminalReportOptions): ViewContext {
  const width = layoutWidth(opts, DEFAULT_WIDTH);
  return { run, width, sectionWidth: Math.min(speedTable(run, width, false).width, width), color: opts.color ?? false };
}

/** The names `show --view` takes for one table. */
export function viewNames(): string[] {
  return reportViews().map((v) => v.name);
}

/** One view alone (`inferbench show ID --view NAME`), or a line saying the run has nothing for it. */
export function renderReportView(run: RunRecord, name: string, opts: TerminalReportOptions = {}): string {
  const view = reportView(name);
  if (view === undefined) throw new Error(`no report view "${name}"`);
  const c = viewContext(run, opts);
  const lines = view.render(c);
  return `${fitReport(lines.length > 0 ? lines : [`This run has nothing for the ${name} view (${view.about}).`], opts, c.width).join('\n')}\n`;
}

/**
 * Renders the end-of-run report as text: one screen by default (header,
 * the answer, a compact speed table, one line each for parity, verdicts and
 * the engines not run here, and where to find the rest), or with `details`
 * every view (report-views.ts) in order. Every section comes from the
 * RunRecord alone, so the same report can be re-rendered later from
 * results.json and matches what was printed at the end of the run.
 */
export function renderTerminalReport(run: RunRecord, opts: RunReportOptions = {}): string {
  const c = viewContext(run, opts);
  const { width: maxWidth, sectionWidth, color } = c;
  const answer = answerLines(run, Math.min(maxWidth, Math.max(sectionWidth, HEADER_WIDTH)), color);
  // Equal terms extended to options: the rows that ran non-default --engine-options, on the one screen and in --details alike.
  const options = optionLines(run, Math.min(maxWidth, Math.max(sectionWidth, HEADER_WIDTH)));
  const out: string[] = [...header(run, Math.min(maxWidth, HEADER_WIDTH), color), '', ...(answer.length > 0 ? [...answer, ''] : []), ...(options.length > 0 ? [...options, ''] : [])];
  const section = (lines: string[]): string[] => (lines.length > 0 ? ['', ...lines] : []);
  if (opts.details === true) {
    for (const view of reportViews()) if (view.partOf === undefined) out.push(...(view.name === 'speed' ? view.render(c) : section(view.render(c))));
    return `${fitReport(out, opts, maxWidth).join('\n')}\n`;
  }
  const proseWidth = Math.min(maxWidth, Math.max(sectionWidth, HEADER_WIDTH));
  const speed = speedTable(run, maxWidth, color, SUMMARY_SPEED_COLUMNS);
  const id = opts.historyId;
  out.push(...speed.lines);
  out.push(...wrap('avg: engine time per batch, the mean of round means; ±95%: its 95% CI across rounds.', proseWidth).map((l) => paint(l, 'dim', color)));
  for (const view of reportViews()) if (view.inSummary?.(run) === true) out.push(...section(view.render(c)));
  out.push(
    '',
    ...parityLine(run, proseWidth, color, id),
    ...verdictLine(run, proseWidth, color, id),
    ...(speed.truncated ? wrap(`Reasons cut short above: ${showCommand(run, 'speed', id)}.`, proseWidth) : []),
    ...unavailableSummary(run, proseWidth),
    ...wrap(`Every table: --details; one: ${showCommand(run, 'NAME', id)}, NAME one of ${viewNames().filter((n) => n !== 'sts' && n !== 'hosts').join(', ')}`, proseWidth),
  );
  // The last word on width: a line a section could not fit (a long word, a table of a kind added later) is broken, never left wider.
  return `${fitReport(out, opts, maxWidth).join('\n')}\n`;
}
