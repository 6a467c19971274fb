/**
 * The report printed at the end of a run, laid out like the Hugging Face
 * transformers benchmark (titled tables, environment block) with mitata's
 * `avg (min … max)` and `p99` columns. Pure: same RunRecord, same text.
 */
import type { CellResult, CompletedCell, RunRecord } from '../src/core/results.js';
import { PERCENTILE_METHOD } from '../src/core/statistics.js';
import {
  compareEngines,
  displayState,
  engineLabeller,
  batchSizes,
  engineOrder,
  formatVersions,
  modelOrder,
  orderedCells,
  sequenceOf,
  sessionOf,
} from './run-summary.js';
import { formatSpeedup, hasSequenceLengths, hasVariants, parityText, sizeText, sizeVsFp32, speedupOverFp32 } from './variant-summary.js';
import { banner, type Column, paint, renderTable, type Style, type TableCell, type TableRow, wrap } from './text-table.js';
import { formatBytes, formatDuration, formatRate, formatRatio, formatTimestamp } from '../src/core/units.js';
import {
  coldStartSection,
  memoryDetailSection,
  PARITY_MARKER,
  paritySection,
  parityWarningLines,
  scalingSections,
  statisticsSection,
} from './terminal-views.js';
import { parityOk } from './views.js';
import { placementLine } from './placement-text.js';
import { browserLines } from './browser-text.js';
import { comparisonLines } from './comparison-lines.js';
import { quantizationTable } from './quantization-table.js';
import { hostSections } from './host-views.js';

export interface TerminalReportOptions {
  /** ANSI colours; off unless asked for, so logs and tests get plain text. */
  readonly color?: boolean;
  /**
   * Terminal width. When the speed table would be wider, its least important
   * columns are dropped (they are repeated under ENVIRONMENT INFORMATION).
   */
  readonly width?: number;
}

/** Wide enough for every speed column; the CLI passes `process.stdout.columns` on a TTY. */
const DEFAULT_WIDTH = 160;
/** The environment header wraps sooner than tables: short lines scan faster. */
const HEADER_WIDTH = 100;

const STATE_STYLE: Record<CellResult['state'] | 'interrupted', Style> = { completed: 'green', errored: 'red', skipped: 'yellow', interrupted: 'yellow' };

interface SpeedColumn extends Column {
  /** Lower numbers are dropped first when the table is too wide; 0 is never dropped. */
  readonly dropOrder: number;
  /** Identity columns are filled for every row; measurement columns only for completed cells. */
  readonly identity: boolean;
  readonly value: (cell: CellResult) => TableCell;
}

function threadsText(cell: CellResult): string {
  const actual = sessionOf(cell)?.threads;
  const requested = cell.requestedThreads;
  if (actual === undefined) return requested === null ? '–' : String(requested);
  if (actual === null) return requested === null ? 'default' : `? (asked ${requested})`;
  return requested !== null && requested !== actual ? `${actual} (asked ${requested})` : String(actual);
}

function completed(cell: CellResult, f: (c: CompletedCell) => string): string {
  return cell.state === 'completed' ? f(cell) : '';
}

function speedColumns(run: RunRecord, label: (cell: CellResult) => string): SpeedColumn[] {
  const singleModel = modelOrder(run).length <= 1;
  const minMax = (c: CompletedCell): string =>
    `(${formatDuration(c.latency.min).padStart(7)} … ${formatDuration(c.latency.max).padStart(7)})`;
  const speedup = speedupOverFp32(run);
  const optional: SpeedColumn[] = [
    ...(hasSequenceLengths(run)
      ? [{ header: 'seq', align: 'right', identity: true, dropOrder: 0, value: (c) => String(sequenceOf(c) ?? 'text') } satisfies SpeedColumn]
      : []),
    ...(run.cells.some((c) => c.state === 'completed' && c.forward)
      ? [{ header: 'forward', align: 'right', identity: false, dropOrder: 0, value: (c) => completed(c, (x) => (x.forward ? formatDuration(x.forward.mean) : '')) } satisfies SpeedColumn]
      : []),
    ...(hasVariants(run)
      ? [{ header: 'vs fp32', align: 'right', identity: false, dropOrder: 0, value: (c) => formatSpeedup(speedup(c)) } satisfies SpeedColumn]
      : []),
  ];
  return withOptionalColumns(baseSpeedColumns(run, singleModel, label, minMax), optional);
}

/** Inserts `seq` after `batch`, `forward` after `avg` and `vs fp32` after `samples/s`. */
function withOptionalColumns(base: SpeedColumn[], optional: SpeedColumn[]): SpeedColumn[] {
  const out: SpeedColumn[] = [];
  for (const col of base) {
    out.push(col);
    if (col.header === 'batch') out.push(...optional.filter((c) => c.header === 'seq'));
    if (col.header === 'avg') out.push(...optional.filter((c) => c.header === 'forward'));
    if (col.header === 'samples/s') out.push(...optional.filter((c) => c.header === 'vs fp32'));
  }
  return out;
}

function baseSpeedColumns(run: RunRecord, singleModel: boolean, label: (cell: CellResult) => string, minMax: (c: CompletedCell) => string): SpeedColumn[] {
  return [
    { header: 'model', align: 'left', identity: true, dropOrder: singleModel ? 6 : 0, value: (c) => c.model },
    { header: 'engine', align: 'left', identity: true, dropOrder: 0, value: (c) => ({ text: label(c), style: 'cyan' }) },
    { header: 'backend', align: 'left', identity: true, dropOrder: 2, value: (c) => sessionOf(c)?.backend ?? '–' },
    { header: 'threads', align: 'right', identity: true, dropOrder: 3, value: threadsText },
    { header: 'prec', align: 'left', identity: true, dropOrder: 1, value: (c) => sessionOf(c)?.precision ?? '–' },
    { header: 'batch', align: 'right', identity: true, dropOrder: 0, value: (c) => String(c.batchSize) },
    { header: 'state', align: 'left', identity: true, dropOrder: 0, value: (c) => ({ text: displayState(c), style: STATE_STYLE[displayState(c)] }) },
    ...(hasChecks(run) ? [checkColumn()] : []),
    { header: 'total', align: 'right', identity: false, dropOrder: 8, value: (c) => completed(c, (x) => formatDuration(x.totalMs)) },
    {
      header: 'avg',
      align: 'right',
      identity: false,
      dropOrder: 0,
      value: (c) => ({ text: completed(c, (x) => formatDuration(x.latency.mean)), style: 'bold' }),
    },
    { header: '(min … max)', align: 'left', identity: false, dropOrder: 7, value: (c) => completed(c, minMax) },
    { header: 'p50', align: 'right', identity: false, dropOrder: 4, value: (c) => completed(c, (x) => formatDuration(x.latency.p50)) },
    { header: 'p99', align: 'right', identity: false, dropOrder: 0, value: (c) => completed(c, (x) => formatDuration(x.latency.p99)) },
    {
      header: 'samples/s',
      align: 'right',
      identity: false,
      dropOrder: 0,
      value: (c) => completed(c, (x) => formatRate(x.samplesPerSecond)),
    },
    { header: 'prepare', align: 'right', identity: false, dropOrder: 5, value: (c) => completed(c, (x) => formatDuration(x.prepare.mean)) },
  ];
}

/** Whether any cell carries a verdict or a parity result (records from before issue 6 have neither). */
function hasChecks(run: RunRecord): boolean {
  return run.cells.some((c) => c.state === 'completed' && (c.verdict !== undefined || (c.parity !== undefined && c.parity !== null)));
}

/** VALID or NOISY, then the parity marker in red: never dropped, so wrong answers show at any width. */
function checkColumn(): SpeedColumn {
  return {
    header: 'check',
    align: 'left',
    identity: false,
    dropOrder: 0,
    value: (c) => {
      if (c.state !== 'completed') return '';
      if (parityOk(c) === false) return { text: c.verdict?.status === 'NOISY' ? `NOISY ${PARITY_MARKER}` : PARITY_MARKER, style: 'red' };
      return c.verdict ? { text: c.verdict.status, style: c.verdict.status === 'VALID' ? 'green' : 'yellow' } : '';
    },
  };
}

function speedRows(cells: readonly CellResult[], columns: readonly SpeedColumn[]): TableRow[] {
  const identityCount = columns.filter((c) => c.identity).length;
  if (cells.length === 0) return [{ cells: [], rest: { text: 'no cell ran', style: 'yellow' } }];
  // With several engines, each sequence length is its own block; with one, blocks are batch sizes as without --sequence-lengths.
  const multiEngine = new Set(cells.map((c) => c.engine)).size > 1;
  return cells.map((cell, i) => {
    const previous = cells[i - 1];
    const ruleAbove =
      previous !== undefined &&
      (previous.batchSize !== cell.batchSize || previous.model !== cell.model || (multiEngine && sequenceOf(previous) !== sequenceOf(cell)));
    if (cell.state === 'completed') return { cells: columns.map((c) => c.value(cell)), ruleAbove };
    return {
      cells: columns.slice(0, identityCount).map((c) => c.value(cell)),
      rest: { text: cell.reason, style: STATE_STYLE[cell.state] },
      ruleAbove,
    };
  });
}

/** The speed table, dropping optional columns until it fits `width`. */
function speedTable(run: RunRecord, width: number, color: boolean): { lines: string[]; width: number; truncated: boolean } {
  const label = engineLabeller(run);
  const cells = orderedCells(run);
  let columns = speedColumns(run, label);
  for (;;) {
    const table = renderTable({ title: 'INFERENCE – SPEED', columns, rows: speedRows(cells, columns), color });
    const droppable = columns.filter((c) => c.dropOrder > 0);
    if (table.width <= width || droppable.length === 0) return table;
    const first = droppable.reduce((a, b) => (b.dropOrder < a.dropOrder ? b : a));
    columns = columns.filter((c) => c !== first);
  }
}


function reasonLines(run: RunRecord, width: number, color: boolean): string[] {
  const label = engineLabeller(run);
  const lines = ['Reasons in full:'];
  for (const cell of orderedCells(run)) {
    if (cell.state === 'completed') continue;
    const head = `  ${label(cell)}, batch ${cell.batchSize} (${cell.state}): `;
    const [first = '', ...rest] = wrap(cell.reason, Math.max(40, width - head.length));
    const styledHead = head.replace(cell.state, paint(cell.state, STATE_STYLE[cell.state], color));
    lines.push(styledHead + first, ...rest.map((l) => ' '.repeat(head.length) + l));
  }
  return lines;
}

/** Peak RSS pivoted to engine × batch size, so growth with batch size reads along a row. */
function memoryTable(run: RunRecord, minWidth: number, color: boolean): string[] {
  const label = engineLabeller(run);
  const batches = batchSizes(run);
  const rows: TableRow[] = [];
  const seen = new Set<string>();
  const withSeq = hasSequenceLengths(run);
  for (const cell of orderedCells(run)) {
    const key = `${cell.model}\u0000${label(cell)}\u0000${sequenceOf(cell)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const same = run.cells.filter((c) => c.model === cell.model && label(c) === label(cell) && sequenceOf(c) === sequenceOf(cell));
    const values = batches.map((b): TableCell => {
      const found = same.find((c) => c.batchSize === b);
      if (found === undefined) return '';
      if (found.state === 'completed') return formatBytes(found.peakRssBytes);
      return { text: found.state, style: STATE_STYLE[found.state] };
    });
    const seq: TableCell[] = withSeq ? [String(sequenceOf(cell) ?? 'text')] : [];
    rows.push({ cells: [cell.model, { text: label(cell), style: 'cyan' }, ...seq, ...values] });
  }
  const columns: Column[] = [
    { header: 'model', align: 'left' },
    { header: 'engine', align: 'left' },
    ...(withSeq ? [{ header: 'seq', align: 'right' } satisfies Column] : []),
    ...batches.map((b): Column => ({ header: `batch ${b}`, align: 'right' })),
  ];
  const table = renderTable({ title: 'INFERENCE – MEMORY', columns, rows, color, minWidth });
  const foreign = run.cells.some((c) => c.state === 'completed' && c.memory?.process !== undefined);
  return [
    ...table.lines,
    foreign
      ? 'Peak resident set size of the process the engine ran in while the cell ran: this Node process, or for a browser cell its Chromium renderer (MEMORY – GROWTH names it).'
      : 'Peak resident set size of the whole process while the cell ran.',
  ];
}

function modelSizeTable(run: RunRecord, minWidth: number, color: boolean): string[] {
  const variants = hasVariants(run);
  // One row per note, so no caveat is ever cut short.
  const rows: TableRow[] = run.models.flatMap((m) => {
    const notes = m.notes.length > 0 ? m.notes : ['–'];
    const extra: TableCell[] = variants ? [sizeVsFp32(run, m), parityText(m)] : [];
    const blank: TableCell[] = variants ? ['', ''] : [];
    return notes.map((note, i) => ({
      cells: i === 0 ? [m.name, sizeText(m), ...extra, m.source, { text: note, style: 'yellow' }] : ['', '', ...blank, '', { text: note, style: 'yellow' }],
    }));
  });
  const columns: Column[] = [
    { header: 'model', align: 'left' },
    { header: 'size on disk', align: 'right' },
    ...(variants ? [{ header: 'vs fp32', align: 'right' } satisfies Column, { header: 'parity vs fp32 (onnx-cpu)', align: 'left' } satisfies Column] : []),
    { header: 'source', align: 'left' },
    { header: 'notes', align: 'left' },
  ];
  return renderTable({ title: 'MODEL SIZE', columns, rows, color, minWidth }).lines;
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
  const line = ([k, v]: [string, string]): string => `- ${k}: ${v}`;
  return [
    banner('ENVIRONMENT INFORMATION', width, color),
    ...items.map(line),
    '- engines:',
    ...engineDescriptions(run),
    ...tail.map(line),
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
  const lines = [
    paint(`inferbench ${env.inferbenchVersion}`, 'bold', color) + `  run ${run.id} (${run.state})`,
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
  if (hasVariants(run)) {
    extra.push('"vs fp32": the fp32 row\'s mean engine time ÷ this row\'s, same engine, batch, threads and sequence length (above 1× is faster). Parity vs fp32 compares each variant\'s outputs with the fp32 graph\'s on the same rows.');
  }
  if (run.cells.some((c) => c.state === 'completed' && c.forward)) {
    extra.push('"forward": mean raw ONNX session.run time inside each pipeline call (transformers-js rows); avg − forward is the pipeline\'s own tokenization, tensor wrapping and post-processing.');
  }
  if (hasSequenceLengths(run)) extra.push('"seq": fixed length of synthetic input ids (--sequence-lengths) instead of tokenized dataset text.');
  return [
    ...extra.flatMap((line) => wrap(line, width)),
    ...wrap(`Percentiles (p50, p90, p95, p99): ${PERCENTILE_METHOD}.`, width),
    ...wrap(
      '95% CI of mean: Student t interval across the round means (rounds − 1 degrees of freedom; each round a fresh load), ' +
        'the spread a re-run sees; percentiles and cv (stdev / mean) pool the batches of every round. ' +
        'VALID or NOISY: whether the cell met its stop rule and its rounds agree within ±5%.',
      width,
    ),
    ...wrap(
      'Engine time (total, avg, min, max, p50, p99, samples/s) runs from inputs handed to the engine until outputs are ' +
        'readable in host memory; it excludes tokenization and collation, which "prepare" shows as the mean per batch.',
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
  const maxWidth = Math.max(40, opts.width ?? DEFAULT_WIDTH);
  const speed = speedTable(run, maxWidth, color);
  const sectionWidth = Math.min(speed.width, maxWidth);
  const out: string[] = [...header(run, Math.min(maxWidth, HEADER_WIDTH), color), '', ...speed.lines];
  const comparisons = comparisonLines(run, sectionWidth, color);
  if (comparisons.length > 0) out.push(...comparisons);
  out.push(...parityWarningLines(run, sectionWidth, color));
  if (speed.truncated) out.push('', ...reasonLines(run, sectionWidth, color));
  const section = (lines: string[]): string[] => (lines.length > 0 ? ['', ...lines] : []);
  out.push(
    ...section(hostSections(run, sectionWidth, color)),
    ...section(statisticsSection(run, maxWidth, sectionWidth, color)),
    ...section(scalingSections(run, maxWidth, sectionWidth, color)),
    '',
    ...memoryTable(run, sectionWidth, color),
    ...section(memoryDetailSection(run, maxWidth, sectionWidth, color)),
    ...section(coldStartSection(run, maxWidth, sectionWidth, color)),
    ...section(paritySection(run, maxWidth, sectionWidth, color)),
    ...section(quantizationTable(run, sectionWidth, color)),
    '',
    ...modelSizeTable(run, sectionWidth, color),
    '',
    ...environmentSection(run, sectionWidth, color),
    ...footnotes(run, sectionWidth),
  );
  return `${out.join('\n')}\n`;
}
