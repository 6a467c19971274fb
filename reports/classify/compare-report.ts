/**
 * The terminal table of `inferbench compare`: each common cell with both
 * sides' mean across rounds (95% interval across round means, rounds
 * counted), B/A with its 95% interval, the p of its log-scale t-test, the call with why, each
 * side's verdict, then a tally, the method, and a warning naming any cell
 * measured on a noisy host.
 */
import type { CellResult, RunRecord } from '../../src/core/results.js';
import { acrossRounds, callWords, type CellComparison, compareMethodText, EQUIVALENCE_BOUND, formatP, noisyHostCells, type RunComparison } from '../run-comparison.js';
import { type Column, paint, renderTable, type Style, type TableCell, type TableRow, wrap } from '../text-table.js';
import { PARITY_MARKER } from './terminal-views.js';
import { dropToFit, fitNote } from '../fitted-table.js';
import { formatDuration, formatDurationRange, formatTimestamp } from '../../src/core/units.js';
import { HIGH_OTHER_CPU_SHARE, HIGH_STEAL_SHARE } from '../../src/core/host-noise.js';

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

/** Renders the comparison for the terminal; colour only when asked for. */
export function renderRunComparison(
  cmp: RunComparison,
  opts: { readonly files: readonly [string, string]; readonly color?: boolean; readonly width?: number },
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
  const lines = [
    ...wrap(runLine('A', cmp.a, opts.files[0]), width),
    ...wrap(runLine('B', cmp.b, opts.files[1]), width),
    '',
    ...table.lines,
    ...wrap(tally, Math.max(table.width, 60)),
    ...[
      'B/A: ratio of engine time per batch, mean of round means (below 1: B is faster; a pipeline engine\'s own forward). Cells whose row fingerprints differ (dataset, --limit, calibration rows) are not compared.',
      `Method: ${compareMethodText(cmp.minEffect)}`,
    ]
      .flatMap((text) => wrap(text, Math.max(table.width, 60)))
      .map((l) => paint(l, 'dim', color)),
  ];
  const noisy = noisyHostCells(cmp);
  if (noisy.length > 0) {
    const warning =
      `warning: noisy host (other processes above ${HIGH_OTHER_CPU_SHARE * 100}% of CPU time net of inferbench's own, or CPU steal > ${HIGH_STEAL_SHARE * 100}%) while measuring ${noisy.length} cell${noisy.length === 1 ? '' : 's'}: ` +
      `${noisy.join(', ')}; other work on the machine may explain their differences`;
    lines.push(...wrap(warning, Math.max(table.width, 60)).map((l) => paint(l, 'yellow', color)));
  }
  if (cmp.a.environment.cpuModel !== cmp.b.environment.cpuModel || cmp.a.environment.cores !== cmp.b.environment.cores) {
    lines.push(paint('warning: the runs were measured on different CPUs; differences include the machine, not only the software', 'yellow', color));
  }
  return `${lines.join('\n')}\n`;
}
