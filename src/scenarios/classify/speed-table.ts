/**
 * INFERENCE – SPEED: one row per cell, from the rows of views.ts. The unit
 * of work is one pass over the rows, so `total` is the engine time of one
 * pass and `total ÷ avg` is the batches of a pass on every engine; both
 * scopes are shown (engine, and end to end), and the threads are those the
 * engine reported, a column that is never dropped. A narrow terminal keeps
 * engine time per batch and samples/s longest; the report's opening answer
 * gives both scopes whatever the width. Laid out like the Hugging
 * Face transformers benchmark with mitata's `avg (min … max)` and `p99`.
 */
import type { CellResult, RunRecord } from '../../core/results.js';
import { formatDuration, formatRate } from '../../core/units.js';
import { displayState, orderedCells, sequenceOf, sessionOf } from '../../../reports/run-summary.js';
import { dropToFit, fitNote, STATE_STYLE, threadsText } from '../../../reports/fitted-table.js';
import { type Column, renderTable, type TableCell, type TableRow } from '../../../reports/text-table.js';
import { formatSpeedup, hasSequenceLengths, hasVariants, speedupOverFp32 } from '../../../reports/variant-summary.js';
import { type BaselineRow, baselineRows, PARITY_MARKER, PARTIAL_MARKER } from '../../../reports/run-views.js';

interface SpeedColumn extends Column {
  /** Lower numbers are dropped first when the table is too wide; 0 is never dropped. */
  readonly dropOrder: number;
  /** Identity columns are filled for every row; measurement columns only for completed cells. */
  readonly identity: boolean;
  readonly value: (row: BaselineRow, cell: CellResult) => TableCell;
}

function measured(row: BaselineRow, f: (r: BaselineRow) => string): string {
  return row.state === 'completed' ? f(row) : '';
}

/** A per-pass total, or why there is none. */
function passText(ms: number | null | undefined, row: BaselineRow): string {
  if (row.partial !== null) return 'n/a';
  return ms === null || ms === undefined ? '–' : formatDuration(ms);
}

/** The engine-time interval's ends as shares of the mean: `±1.2%`, or `−11% +12%` when the log-scale interval is visibly uneven; `–` with one round. */
function intervalText(row: BaselineRow): string {
  const ci = row.interval;
  const m = row.meanMs;
  if (ci === null || m === null || !(m > 0)) return '–';
  const share = (x: number): string => (x * 100).toFixed(Math.max((ci.high - m) / m, (m - ci.low) / m) >= 0.1 ? 0 : 1);
  const [down, up] = [share((m - ci.low) / m), share((ci.high - m) / m)];
  return down === up ? `±${up}%` : `−${down}% +${up}%`;
}

/** VALID or NOISY, then PARTIAL, then the parity marker in red: never dropped, so wrong answers show at any width. */
function checkCell(row: BaselineRow): TableCell {
  if (row.state !== 'completed') return '';
  // Wrong outputs replace VALID: a fast engine with wrong answers never reads as valid.
  const verdict = row.parityOk === false && row.verdict?.status === 'VALID' ? '' : (row.verdict?.status ?? '');
  const words = [verdict, row.partial !== null ? PARTIAL_MARKER : '', row.parityOk === false ? PARITY_MARKER : ''].filter((w) => w !== '');
  if (words.length === 0) return '';
  return { text: words.join(' '), style: row.parityOk === false ? 'red' : words.length === 1 && words[0] === 'VALID' ? 'green' : 'yellow' };
}

function speedColumns(run: RunRecord, rows: readonly BaselineRow[]): SpeedColumn[] {
  const singleModel = new Set(run.cells.map((c) => c.model)).size <= 1;
  const speedup = speedupOverFp32(run);
  const hasChecks = rows.some((r) => r.verdict !== null || r.parityOk !== null || r.partial !== null);
  const hasE2e = rows.some((r) => r.endToEnd !== null);
  const minMax = (r: BaselineRow): string => `(${formatDuration(r.latency?.min ?? 0).padStart(7)} … ${formatDuration(r.latency?.max ?? 0).padStart(7)})`;
  return [
    // One model: it is named in the header line and MODEL SIZE, so its column goes first.
    { header: 'model', align: 'left', identity: true, whole: true, dropOrder: singleModel ? 1 : 0, value: (r) => r.model },
    { header: 'engine', align: 'left', identity: true, whole: true, dropOrder: 0, value: (r) => ({ text: r.label, style: 'cyan' }) },
    { header: 'backend', align: 'left', identity: true, dropOrder: 3, value: (_r, c) => sessionOf(c)?.backend ?? '–' },
    { header: 'threads', align: 'right', identity: true, dropOrder: 0, value: (r) => threadsText(r) },
    { header: 'prec', align: 'left', identity: true, dropOrder: 2, value: (_r, c) => sessionOf(c)?.precision ?? '–' },
    { header: 'batch', align: 'right', identity: true, dropOrder: 0, value: (r) => String(r.batchSize) },
    ...(hasSequenceLengths(run) ? [{ header: 'seq', align: 'right', identity: true, dropOrder: 0, value: (_r, c) => String(sequenceOf(c) ?? 'text') } satisfies SpeedColumn] : []),
    { header: 'state', align: 'left', identity: true, dropOrder: 13, value: (_r, c) => ({ text: displayState(c), style: STATE_STYLE[displayState(c)] }) },
    ...(hasChecks ? [{ header: 'check', align: 'left', identity: false, dropOrder: 0, value: checkCell } satisfies SpeedColumn] : []),
    { header: 'batches/pass', align: 'right', identity: false, dropOrder: 10, value: (r) => measured(r, (x) => (x.pass ? String(x.pass.batches) : '–')) },
    { header: 'total', align: 'right', identity: false, dropOrder: 11, value: (r) => measured(r, (x) => passText(x.engineTime?.passMs, x)) },
    { header: 'avg', align: 'right', identity: false, dropOrder: 0, value: (r) => ({ text: measured(r, (x) => formatDuration(x.meanMs ?? 0)), style: 'bold' }) },
    // The 95% interval of total and avg alike (total = avg × batches of a pass), as a share of the mean.
    { header: '±95%', align: 'right', identity: false, dropOrder: 9, value: (r) => measured(r, intervalText) },
    { header: '(min … max)', align: 'left', identity: false, dropOrder: 6, value: (r) => measured(r, minMax) },
    { header: 'p50', align: 'right', identity: false, dropOrder: 5, value: (r) => measured(r, (x) => formatDuration(x.latency?.p50 ?? 0)) },
    { header: 'p99', align: 'right', identity: false, dropOrder: 8, value: (r) => measured(r, (x) => formatDuration(x.latency?.p99 ?? 0)) },
    { header: 'samples/s', align: 'right', identity: false, dropOrder: 0, value: (r) => measured(r, (x) => (x.samplesPerSecond === null ? '–' : formatRate(x.samplesPerSecond))) },
    ...(hasVariants(run) ? [{ header: 'vs fp32', align: 'right', identity: false, dropOrder: 0, value: (_r, c) => formatSpeedup(speedup(c)) } satisfies SpeedColumn] : []),
    ...(hasE2e
      ? [
          { header: 'e2e total', align: 'right', identity: false, dropOrder: 12, value: (r) => measured(r, (x) => passText(x.endToEnd?.passMs, x)) } satisfies SpeedColumn,
          { header: 'e2e avg', align: 'right', identity: false, dropOrder: 7, value: (r) => measured(r, (x) => (x.endToEnd ? formatDuration(x.endToEnd.meanMs) : '–')) } satisfies SpeedColumn,
        ]
      : []),
    { header: 'prepare', align: 'right', identity: false, dropOrder: 4, value: (r) => measured(r, (x) => (x.prepare ? formatDuration(x.prepare.meanMs) : '–')) },
  ];
}

function speedRows(run: RunRecord, rows: readonly BaselineRow[], columns: readonly SpeedColumn[]): TableRow[] {
  const identityCount = columns.filter((c) => c.identity).length;
  const cells = orderedCells(run);
  if (rows.length === 0) return [{ cells: [], rest: { text: 'no cell ran', style: 'yellow' } }];
  // With several engines, each sequence length is its own block; with one, blocks are batch sizes as without --sequence-lengths.
  const multiEngine = new Set(rows.map((r) => r.engine)).size > 1;
  return rows.map((row, i) => {
    const cell = cells[i] as CellResult;
    const previous = rows[i - 1];
    const ruleAbove =
      previous !== undefined &&
      (previous.batchSize !== row.batchSize || previous.model !== row.model || (multiEngine && previous.sequenceLength !== row.sequenceLength));
    if (cell.state === 'completed') return { cells: columns.map((c) => c.value(row, cell)), ruleAbove };
    // Without the state column (a narrow terminal) a failed row says its state before its reason; a completed one has VALID or NOISY.
    const text = columns.some((c) => c.header === 'state') ? cell.reason : `${cell.state}: ${cell.reason}`;
    return { cells: columns.slice(0, identityCount).map((c) => c.value(row, cell)), rest: { text, style: STATE_STYLE[cell.state] }, ruleAbove };
  });
}

/**
 * The speed table, dropping optional columns until it fits `width`, with the
 * line that says which it left out; `only` keeps just the named columns (the
 * one-screen report's), and then no line names the others.
 */
export function speedTable(run: RunRecord, width: number, color: boolean, only?: ReadonlySet<string>): { lines: string[]; width: number; truncated: boolean } {
  const rows = baselineRows(run);
  const all = speedColumns(run, rows);
  const fit = dropToFit(only === undefined ? all : all.filter((c) => only.has(c.header)), width, (columns, maxWidth) =>
    renderTable({ title: 'INFERENCE – SPEED (one pass = every row once)', columns, rows: speedRows(run, rows, columns), color, ...(maxWidth !== undefined ? { maxWidth } : {}) }),
  );
  const note = only === undefined ? fitNote(fit, width) : fitNote({ ...fit, dropped: [] }, width);
  return { lines: [...fit.lines, ...note], width: fit.width, truncated: fit.truncated };
}

/** The speed table's footnotes, each true for every row it sits under. */
export function speedFootnotes(run: RunRecord): string[] {
  const rows = baselineRows(run).filter((r) => r.state === 'completed');
  const pipeline = rows.some((r) => r.engineTime?.covers.startsWith("the pipeline's"));
  const plain = rows.some((r) => r.engineTime !== null && !r.engineTime.covers.startsWith("the pipeline's"));
  const lines = [
    'batches/pass: batches of one pass over the rows (the last may be short); total: engine time of one pass = avg × batches/pass; avg: engine time per batch, the mean of round means; ±95%: their 95% CI across rounds, as the share below and above the mean (on the log scale, so the two differ; one figure when they round alike); samples/s: rows of one pass ÷ total. ' +
      '(min … max), p50 and p99 pool every batch of every round. A cell without a whole pass has no total, no samples/s and no ratio: it saw other rows.',
    'engine time: ' +
      [
        plain ? 'the engine call, from inputs handed to the engine until outputs are readable in host memory (tokenization excluded)' : '',
        pipeline ? `${plain ? 'on pipeline rows (transformers-js) ' : ''}the pipeline's own ONNX forward inside its call (its tokenization and post-processing excluded)` : '',
      ]
        .filter((s) => s !== '')
        .join('; ') +
      '.',
  ];
  if (rows.some((r) => r.endToEnd !== null)) {
    lines.push(
      'e2e (end to end): ' +
        [
          plain ? 'the item callback (tokenize, collate, wrap), the engine call and reading its outputs back' : '',
          pipeline ? `${plain ? 'on pipeline rows ' : ''}the whole pipeline call (its own tokenization, forward, softmax and top-1)` : '',
        ]
          .filter((s) => s !== '')
          .join('; ') +
        '; e2e total = e2e avg × batches/pass, from the round means too.',
    );
  }
  lines.push('prepare: the item callback (tokenize, collate, wrap) per batch, mean of round means' + (pipeline ? '; a pipeline engine tokenizes again inside its call' : '') + '.');
  if (hasVariants(run)) {
    lines.push('"vs fp32": the fp32 row\'s engine time per batch (mean of round means) ÷ this row\'s, same engine, batch, threads and sequence length (above 1× is faster); left out when either cell has no whole pass.');
  }
  return lines;
}
