/**
 * The terminal table of `inferbench compare`: the tally of calls first
 * (the answer), then each common cell with both sides' mean across rounds
 * (95% interval across round means, rounds counted), B/A with its 95%
 * interval, the p of its log-scale t-test, the call with why, each side's
 * verdict, fitted to the terminal's width; then one line on the method (in
 * full with --details) and a warning naming any cell measured on a noisy host.
 */
import type { CellResult, RunRecord } from '../../core/results.js';
import { acrossRounds, callWords, type CellComparison, COMPARE_ALPHA, compareMethodText, EQUIVALENCE_BOUND, formatP, noisyHostCells, ratioText, type RunComparison } from '../../../reports/run-comparison.js';
import { type Column, paint, renderTable, type Style, type TableCell, type TableRow, wrap } from '../../../reports/text-table.js';
import { PARITY_MARKER } from './terminal-views.js';
import { dropToFit, fitNote, fittedRows } from '../../../reports/fitted-table.js';
import { formatDuration, formatDurationRange, formatTimestamp } from '../../core/units.js';
import { HEADER_WIDTH } from '../../../reports/report-layout.js';
import { HIGH_OTHER_CPU_SHARE, HIGH_STEAL_SHARE } from '../../core/host-noise.js';

const CALL_STYLE: Record<CellComparison['call'], Style> = {
  faster: 'green',
  slower: 'red',
  'no difference': 'dim',
  inconclusive: 'yellow',
  'not compared': 'yellow',
};

function meanText(cell: CellResult): string {
  if (cell.state !== 'completed') return cell.state;
  const r = acrossRounds(cell);
  const rounds = `${r.rounds} round${r.rounds === 1 ? '' : 's'}`;
  return r.ci95 ? `${formatDuration(r.mean)} (${formatDurationRange(r.ci95.low, r.ci95.high)}, ${rounds})` : `${formatDuration(r.mean)} (${rounds})`;
}

function verdictText(c: CellComparison): TableCell {
  const a = c.verdictA ?? '–';
  const b = c.verdictB ?? '–';
  const wrong = [c.parityA === false ? 'A' : '', c.parityB === false ? 'B' : ''].filter((s) => s !== '');
  if (wrong.length > 0) return { text: `${a} / ${b} ${PARITY_MARKER} in ${wrong.join(' and ')}`, style: 'red' };
  return { text: `${a} / ${b}`, ...(c.verdictA === 'NOISY' || c.verdictB === 'NOISY' ? { style: 'yellow' as const } : {}) };
}

function callText(c: CellComparison): TableCell {
  return { text: callWords(c), style: CALL_STYLE[c.call] };
}

function ratioCell(c: CellComparison): string {
  if (c.ratio === null) return '';
  return c.ratioCi === null ? `${c.ratio.toFixed(3)}×` : `${c.ratio.toFixed(3)}× (${c.ratioCi.low.toFixed(3)}–${c.ratioCi.high.toFixed(3)})`;
}

function runLine(tag: string, run: RunRecord, file: string): string {
  const env = run.environment;
  return `${tag}: ${run.id} (${file}) · ${env.cpuModel}, ${env.cores} cores · node ${env.node} · ${formatTimestamp(env.date)}`;
}

const machineOf = (run: RunRecord): string => `${run.environment.cpuModel}, ${run.environment.cores} cores · node ${run.environment.node}`;

/** The two runs on the one screen: ids and dates, and the machine once when both ran on the same (the files with --details). */
function runsLines(cmp: RunComparison, width: number): string[] {
  const [a, b] = [cmp.a, cmp.b];
  const same = machineOf(a) === machineOf(b);
  const side = (tag: string, run: RunRecord): string => `${tag}: ${run.id}, ${formatTimestamp(run.environment.date)}${same ? '' : ` · ${machineOf(run)}`}`;
  return [...wrap(`${side('A', a)}; ${side('B', b)}`, width), ...(same ? wrap(`Both on ${machineOf(a)}`, width) : [])];
}

/** The call in a word or two with its ratio, for the one-screen grid: `1.50× slower`, `no difference`, `inconclusive`. */
function shortCall(c: CellComparison): TableCell {
  const text = c.call === 'faster' || c.call === 'slower' ? `${ratioText(c.ratio)} ${c.call}` : c.call;
  return { text, style: CALL_STYLE[c.call] };
}

/**
 * The one-screen grid: a row per cell without its batch size (engine, and
 * threads or model where they vary), a column per batch size, the call in
 * each; the full sentence of each call, with B/A's interval, p and the
 * verdicts, is the --details table.
 */
function callGrid(cmp: RunComparison, width: number, color: boolean) {
  const rowOf = (c: CellComparison): string => c.label.replace(/(^| · )batch \d+/u, '').replace(/^ · /u, '') || c.engine;
  const batches = [...new Set(cmp.cells.map((c) => c.batchSize))].sort((x, y) => x - y);
  const rowKeys = [...new Set(cmp.cells.map(rowOf))];
  const rows: TableRow[] = rowKeys.map((key) => ({
    cells: [{ text: key, style: 'cyan' }, ...batches.map((b) => {
      const cell = cmp.cells.find((c) => rowOf(c) === key && c.batchSize === b);
      return cell === undefined ? '–' : shortCall(cell);
    })],
  }));
  return fittedRows({
    title: 'RUN COMPARISON – B against A',
    columns: [{ header: 'cell', align: 'left', whole: true }, ...batches.map((b) => ({ header: `batch ${b}`, align: 'left' as const, whole: true }))],
    rows,
    color,
    minWidth: 0,
    maxWidth: width,
  });
}

/** "Inconclusive: 3 cells; more rounds would tell (up to --rounds 9) …", or nothing. */
function inconclusiveLine(cmp: RunComparison): string[] {
  const cells = cmp.cells.filter((c) => c.call === 'inconclusive');
  if (cells.length === 0) return [];
  const rounds = cells.flatMap((c) => /--rounds (\d+)/u.exec(c.note ?? '')?.[1] ?? []).map(Number);
  const more = rounds.length > 0 ? `; more rounds would tell (up to --rounds ${Math.max(...rounds)})` : '';
  return [`Inconclusive: ${cells.length} cell${cells.length === 1 ? '' : 's'}${more}; --details gives each interval, p and verdict.`];
}

/** A fraction as a whole percentage: 0.05 → 5%. */
const percent = (x: number): string => `${+(x * 100).toFixed(1)}%`;

/**
 * Renders the comparison for the terminal, on one screen: both runs, the
 * tally of calls, a grid of each cell's call (engine × batch size), one
 * line on the method and the warnings; with `details`, the runs' files, the
 * full table (both sides' means, B/A with its interval, p, the call with
 * why, the verdicts) and the method in full. Colour only when asked for.
 */
export function renderRunComparison(
  cmp: RunComparison,
  opts: { readonly files: readonly [string, string]; readonly color?: boolean; readonly width?: number; readonly details?: boolean },
): string {
  const color = opts.color ?? false;
  const width = Math.max(60, opts.width ?? 160);
  // Least needed first when the terminal is narrow: the two sides' means, then p and the verdicts; the cell, B/A and the result stay (dropToFit).
  type CompareColumn = Column & { readonly dropOrder: number; readonly value: (c: CellComparison) => TableCell };
  const all: CompareColumn[] = [
    { header: 'cell', align: 'left', whole: true, dropOrder: 0, value: (c) => ({ text: c.label, style: 'cyan' }) },
    { header: 'A mean of rounds (95% CI)', align: 'right', dropOrder: 2, value: (c) => meanText(c.a) },
    { header: 'B mean of rounds (95% CI)', align: 'right', dropOrder: 1, value: (c) => meanText(c.b) },
    { header: 'B/A (95% CI)', align: 'right', dropOrder: 0, value: ratioCell },
    { header: 'p', align: 'right', dropOrder: 3, value: (c) => (c.p === null ? '–' : formatP(c.p)) },
    { header: 'result', align: 'left', whole: true, dropOrder: 0, value: callText },
    { header: 'verdict A / B', align: 'left', dropOrder: 4, value: verdictText },
  ];
  const fit = dropToFit(all, width, (columns, maxWidth) => {
    const rows: TableRow[] = cmp.cells.map((c, i) => ({ cells: columns.map((col) => col.value(c)), ruleAbove: i > 0 && cmp.cells[i - 1]?.batchSize !== c.batchSize }));
    return renderTable({ title: 'RUN COMPARISON – B against A', columns, rows, color, ...(maxWidth !== undefined ? { maxWidth } : {}) });
  });
  const table = { lines: [...fit.lines, ...fitNote(fit, width)], width: fit.width };
  const count = (call: CellComparison['call']): number => cmp.cells.filter((c) => c.call === call).length;
  const tally =
    `B is faster in ${count('faster')}, slower in ${count('slower')}, shows no difference (within ±${EQUIVALENCE_BOUND * 100}%) in ` +
    `${count('no difference')} and is inconclusive in ${count('inconclusive')} of ${cmp.cells.length} common cells` +
    (count('not compared') > 0 ? `; ${count('not compared')} could not be compared (the result column says why: errored, skipped, part of a pass, different rows)` : '') +
    (cmp.onlyInA.length + cmp.onlyInB.length > 0 ? `; ${cmp.onlyInA.length} cells only in A, ${cmp.onlyInB.length} only in B` : '') +
    '.';
  const prose = Math.min(width, Math.max(table.width, 60, HEADER_WIDTH));
  // The answer first (issue 47): the tally of calls, then the table with each cell's call; the method in full with --details.
  const lines = [
    ...(opts.details === true ? [...wrap(runLine('A', cmp.a, opts.files[0]), width), ...wrap(runLine('B', cmp.b, opts.files[1]), width)] : runsLines(cmp, width)),
    '',
    ...wrap(tally, prose).map((l, i) => (i === 0 ? paint(l, 'bold', color) : l)),
    '',
    ...(opts.details === true ? table.lines : (() => {
      const grid = callGrid(cmp, width, color);
      return [...grid.lines, ...fitNote(grid, width)];
    })()),
    ...(opts.details === true ? [] : inconclusiveLine(cmp).flatMap((l) => wrap(l, prose))),
    ...(opts.details === true
      ? [
          'B/A: ratio of engine time per batch, mean of round means (below 1: B is faster; a pipeline engine\'s own forward). Cells whose row fingerprints differ (dataset, --limit, calibration rows) are not compared.',
          `Method: ${compareMethodText(cmp.minEffect)}`,
        ]
      : [
          `B/A: engine time per batch, mean of round means (below 1: B is faster). Calls: t-test of log(B/A) on round means, α = ${COMPARE_ALPHA}, at least ${percent(cmp.minEffect)} away from 1; no difference: the interval within ±${percent(EQUIVALENCE_BOUND)}; --details for the method in full.`,
        ]
    )
      .flatMap((text) => wrap(text, prose))
      .map((l) => paint(l, 'dim', color)),
  ];
  const noisy = noisyHostCells(cmp);
  if (noisy.length > 0) {
    const warning =
      `warning: noisy host (other processes above ${HIGH_OTHER_CPU_SHARE * 100}% of CPU time net of inferbench's own, or CPU steal > ${HIGH_STEAL_SHARE * 100}%) while measuring ${noisy.length} cell${noisy.length === 1 ? '' : 's'}: ` +
      `${noisy.join(', ')}; other work on the machine may explain their differences`;
    lines.push(...wrap(warning, prose).map((l) => paint(l, 'yellow', color)));
  }
  if (cmp.a.environment.cpuModel !== cmp.b.environment.cpuModel || cmp.a.environment.cores !== cmp.b.environment.cores) {
    lines.push(...wrap('warning: the runs were measured on different CPUs; differences include the machine, not only the software', prose).map((l) => paint(l, 'yellow', color)));
  }
  return `${lines.join('\n')}\n`;
}
