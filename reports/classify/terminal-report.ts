/**
 * The report printed at the end of a run, laid out like the Hugging Face
 * transformers benchmark (titled tables, environment block) with mitata's
 * `avg (min … max)` and `p99` columns. Pure: same RunRecord, same text.
 */
import { nothingMeasured } from '../../src/core/nothing-measured.js';
import type { RunRecord } from '../../src/core/results.js';
import { PERCENTILE_METHOD } from '../../src/core/statistics.js';
import { DEFAULT_BATCH_SIZES, DEFAULT_ROWS, FULL_SWEEP_BATCH_SIZES, FULL_SWEEP_ROWS } from '../../src/core/stop-rule.js';
import { engineLabeller, batchSizes, engineOrder, formatVersions, orderedCells, sequenceOf, sessionOf } from '../run-summary.js';
import { hasSequenceLengths, hasVariants, parityText, sizeText, sizeVsFp32 } from '../variant-summary.js';
import { banner, type Column, paint, renderTable, type TableCell, type TableRow, visibleLength, wrap } from '../text-table.js';
import { dropToFit, fitNote } from '../fitted-table.js';
import { fitReport, HEADER_WIDTH, layoutWidth, type ReportLayout } from '../report-layout.js';
import { formatBytes, formatTimestamp } from '../../src/core/units.js';
import { energySection } from './terminal-energy-section.js';
import { coldStartSection, memoryDetailSection, paritySection, parityWarningLines, scalingSections, statisticsSection } from './terminal-views.js';
import { baselineRows, threadsUsed } from '../run-views.js';
import { placementLine } from '../placement-text.js';
import { unavailableLines } from '../unavailable-text.js';
import { browserLines } from './browser-text.js';
import { answerLines, comparisonLines } from './comparison-lines.js';
import { quantizationTable } from './quantization-table.js';
import { hostSections } from '../host-views.js';
import { speedFootnotes, speedTable } from './speed-table.js';
import { STATE_STYLE } from '../fitted-table.js';
import { stsSection } from './sts-table.js';
import { optionLines } from './options-lines.js';
import { cellNamer, groupByReason } from '../cell-names.js';

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

/** Peak RSS of the timed loop pivoted to engine × batch size, so growth with batch size reads along a row; each row says whose process it is. */
function memoryTable(run: RunRecord, minWidth: number, maxWidth: number, color: boolean): string[] {
  const label = engineLabeller(run);
  const batches = batchSizes(run);
  const rows: TableRow[] = [];
  const seen = new Set<string>();
  const withSeq = hasSequenceLengths(run);
  const processOf = new Map(baselineRows(run).map((r, i) => [orderedCells(run)[i], r.memoryProcess]));
  const withProcess = [...processOf.values()].some((p) => p !== null && p !== undefined);
  for (const cell of orderedCells(run)) {
    const key = `${cell.model}\u0000${label(cell)}\u0000${sequenceOf(cell)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const same = run.cells.filter((c) => c.model === cell.model && label(c) === label(cell) && sequenceOf(c) === sequenceOf(cell));
    const values = batches.map((b): TableCell => {
      const found = same.find((c) => c.batchSize === b);
      if (found === undefined) return '';
      if (found.state === 'completed') return formatBytes(found.memory?.peakRssBytes ?? found.peakRssBytes);
      return { text: found.state, style: STATE_STYLE[found.state] };
    });
    const processes = [...new Set(same.map((c) => processOf.get(c) ?? null).filter((p) => p !== null))];
    const threads = [...new Set(same.filter((c) => c.state !== 'skipped').map((c) => threadsUsed(c) ?? 'default'))].join(' / ') || '–';
    const seq: TableCell[] = withSeq ? [String(sequenceOf(cell) ?? 'text')] : [];
    const proc: TableCell[] = withProcess ? [processes.length > 0 ? { text: processes.join(' / '), style: processes.includes('browser renderer') ? 'yellow' : 'dim' } : '?'] : [];
    rows.push({ cells: [cell.model, { text: label(cell), style: 'cyan' }, threads, ...seq, ...proc, ...values] });
  }
  const columns: Column[] = [
    { header: 'model', align: 'left' },
    { header: 'engine', align: 'left' },
    { header: 'threads', align: 'right' },
    ...(withSeq ? [{ header: 'seq', align: 'right' } satisfies Column] : []),
    ...(withProcess ? [{ header: 'process', align: 'left' } satisfies Column] : []),
    ...batches.map((b): Column => ({ header: `batch ${b}`, align: 'right' })),
  ];
  const table = renderTable({ title: 'INFERENCE – MEMORY (peak RSS of the timed loop)', columns, rows, color, minWidth, maxWidth });
  const foreign = run.cells.some((c) => c.state === 'completed' && c.memory?.process !== undefined);
  return [
    ...table.lines,
    ...fitNote({ dropped: [], abbreviated: table.abbreviated }, maxWidth),
    ...wrap('Peak resident set size during the timed loop of each cell, of the process the engine ran in' +
      (foreign ? ' (this Node process, or for a browser row its Chromium renderer: not comparable with whole Node processes)' : '') +
      (withProcess ? '; process: isolated (a fresh child per load), in-process (the measuring process, beside other engines) or browser renderer' : '') +
      '. Later batch sizes of a load run after earlier ones in the same process' +
      (run.cells.some((c) => c.state === 'completed' && c.memory?.ranBefore !== undefined) ? ' (the growth table below says which).' : '.'),
      maxWidth,
    ),
  ];
}

/**
 * MODEL SIZE: one row per model, its notes wrapped onto rows of their own.
 * Model names are never cut (a cut name could make two models read as one).
 * To fit, the notes first wrap narrower (down to MIN_NOTE_WIDTH), then the
 * least important columns go, notes first, then source, parity and vs fp32;
 * the note under the table names what went (dropToFit, fitNote).
 */
function modelSizeTable(run: RunRecord, minWidth: number, maxWidth: number, color: boolean): string[] {
  const variants = hasVariants(run);
  type Model = RunRecord['models'][number];
  type SizeColumn = Column & { readonly dropOrder: number; readonly value: (m: Model) => TableCell };
  const all: SizeColumn[] = [
    { header: 'model', align: 'left', whole: true, dropOrder: 0, value: (m) => m.name },
    { header: 'size on disk', align: 'right', dropOrder: 0, value: (m) => sizeText(m) },
    ...(variants
      ? [
          { header: 'vs fp32', align: 'right', dropOrder: 4, value: (m: Model) => sizeVsFp32(run, m) } satisfies SizeColumn,
          { header: 'parity vs fp32 (onnx-cpu)', align: 'left', dropOrder: 3, value: (m: Model) => parityText(m) } satisfies SizeColumn,
        ]
      : []),
    { header: 'source', align: 'left', dropOrder: 2, value: (m) => m.source },
    // Wrapped here to the room the others leave, so no caveat is ever cut short; whole, so the table never cuts it again.
    { header: 'notes', align: 'left', whole: true, dropOrder: 1, value: () => '' },
  ];
  const fit = dropToFit(all, maxWidth, (columns, cutTo) => {
    const others = columns.filter((c) => c.header !== 'notes');
    const withNotes = others.length < columns.length;
    const natural = others.reduce((sum, c) => sum + Math.max(c.header.length, ...run.models.map((m) => visibleLength(textOf(c.value(m))))) + 2, 0);
    const noteWidth = Math.max(MIN_NOTE_WIDTH, maxWidth - natural);
    const rows: TableRow[] = run.models.flatMap((m) => {
      const notes = withNotes ? (m.notes.length > 0 ? m.notes.flatMap((n) => wrap(n, noteWidth)) : ['–']) : [''];
      return notes.map((note, i) => ({
        cells: [...others.map((c) => (i === 0 ? c.value(m) : '')), ...(withNotes ? [{ text: note, style: 'yellow' } satisfies TableCell] : [])],
      }));
    });
    return renderTable({ title: 'MODEL SIZE', columns: [...others, ...(withNotes ? columns.filter((c) => c.header === 'notes') : [])], rows, color, minWidth, ...(cutTo !== undefined ? { maxWidth: cutTo } : {}) });
  });
  return [...fit.lines, ...fitNote(fit, maxWidth)];
}

/** The narrowest the MODEL SIZE notes wrap to before the column is dropped instead. */
const MIN_NOTE_WIDTH = 20;

function textOf(cell: TableCell): string {
  return typeof cell === 'string' ? cell : cell.text;
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
      '95% CI of mean: across the round means on the log scale, mean × exp(±t·s/(mean·√rounds)) (Student t, rounds − 1 degrees of freedom; each round a fresh load), never below zero, ' +
        'the spread a re-run sees. VALID or NOISY: whether the cell met its stop rule and its rounds agree within ±5%; PARTIAL: no whole pass.',
      width,
    ),
  ];
}

/**
 * Renders the whole end-of-run report as text. Every section comes from the
 * RunRecord alone, so the same report can be re-rendered later from
 * results.json and matches what was printed at the end of the run.
 */
export function renderTerminalReport(run: RunRecord, opts: TerminalReportOptions = {}): string {
  const color = opts.color ?? false;
  const maxWidth = layoutWidth(opts, DEFAULT_WIDTH);
  const speed = speedTable(run, maxWidth, color);
  const sectionWidth = Math.min(speed.width, maxWidth);
  const answer = answerLines(run, Math.min(maxWidth, Math.max(sectionWidth, HEADER_WIDTH)), color);
  const options = optionLines(run, Math.min(maxWidth, Math.max(sectionWidth, HEADER_WIDTH)));
  const out: string[] = [...header(run, Math.min(maxWidth, HEADER_WIDTH), color), '', ...(answer.length > 0 ? [...answer, ''] : []), ...(options.length > 0 ? [...options, ''] : []), ...speed.lines];
  const comparisons = comparisonLines(run, sectionWidth, color);
  if (comparisons.length > 0) out.push(...comparisons);
  out.push(...parityWarningLines(run, sectionWidth, color));
  const sts = stsSection(run, sectionWidth, color);
  if (sts.length > 0) out.push('', ...sts);
  if (speed.truncated) out.push('', ...reasonLines(run, sectionWidth, color));
  const section = (lines: string[]): string[] => (lines.length > 0 ? ['', ...lines] : []);
  out.push(
    ...section(hostSections(run, sectionWidth, color)),
    ...section(statisticsSection(run, maxWidth, sectionWidth, color)),
    ...section(scalingSections(run, maxWidth, sectionWidth, color)),
    '',
    ...memoryTable(run, sectionWidth, maxWidth, color),
    ...section(memoryDetailSection(run, maxWidth, sectionWidth, color)),
    ...section(energySection(run, maxWidth, sectionWidth, color)),
    ...section(coldStartSection(run, maxWidth, sectionWidth, color)),
    ...section(paritySection(run, maxWidth, sectionWidth, color)),
    ...section(quantizationTable(run, sectionWidth, maxWidth, color)),
    '',
    ...modelSizeTable(run, sectionWidth, maxWidth, color),
    '',
    ...environmentSection(run, sectionWidth, color),
    ...footnotes(run, sectionWidth),
  );
  // The last word on width: a line a section could not fit (a long word, a table of a kind added later) is broken, never left wider.
  return `${fitReport(out, opts, maxWidth).join('\n')}\n`;
}
