/**
 * GPU memory and energy of the timed loops, as the hardware told them: a
 * table of the measured figures with their window, and for every figure the
 * hardware could not give, one line `unmeasurable: <why>` naming the cells —
 * never a 0, which would read as free.
 */
import { isUnmeasurable, type Measured } from '../../core/energy.js';
import type { RunRecord } from '../../core/results.js';
import { formatBytes, formatDuration } from '../../core/units.js';
import { groupByReason } from '../../../reports/cell-names.js';
import { type FitColumn, fittedTable, identityColumns } from '../../../reports/fitted-table.js';
import { energyNote } from '../../../reports/csv-report.js';
import { wrap } from '../../../reports/text-table.js';
import { type BaselineRow, baselineRows } from '../../../reports/run-views.js';

type Figure = 'gpu memory' | 'gpu energy' | 'cpu energy';

function figureOf(r: BaselineRow, which: Figure): Measured<object> | undefined {
  if (which === 'gpu memory') return r.memory?.gpu;
  return which === 'gpu energy' ? r.energy?.gpu : r.energy?.cpu;
}

const LABEL: Readonly<Record<Figure, string>> = {
  'gpu memory': 'GPU peak memory (this process, nvidia-smi)',
  'gpu energy': 'GPU energy (board power, nvidia-smi)',
  'cpu energy': 'CPU energy (RAPL)',
};

/** The section; empty for records without these figures. */
export function energySection(run: RunRecord, width: number, minWidth: number, color: boolean): string[] {
  const rows = baselineRows(run).filter((r) => r.state === 'completed' && (r.energy !== null || r.memory?.gpu !== undefined));
  if (rows.length === 0) return [];
  const measured = (which: Figure) => rows.some((r) => {
    const f = figureOf(r, which);
    return f !== undefined && !isUnmeasurable(f);
  });
  const cell = (which: Figure, text: (f: never) => string) => (r: BaselineRow): string => {
    const f = figureOf(r, which);
    return f === undefined || isUnmeasurable(f) ? '–' : text(f as never);
  };
  const columns: FitColumn<BaselineRow>[] = [
    ...identityColumns(run, rows),
    ...(measured('gpu memory') ? [{ header: 'GPU peak', align: 'right' as const, dropOrder: 0, value: cell('gpu memory', (g: { peakBytes: number }) => formatBytes(g.peakBytes)) }] : []),
    ...(measured('gpu energy') ? [{ header: 'GPU J/sample', align: 'right' as const, dropOrder: 0, value: cell('gpu energy', (e: { joulesPerSample: number }) => e.joulesPerSample.toPrecision(3)) }] : []),
    ...(measured('cpu energy') ? [{ header: 'CPU J/sample', align: 'right' as const, dropOrder: 0, value: cell('cpu energy', (e: { joulesPerSample: number }) => e.joulesPerSample.toPrecision(3)) }] : []),
    { header: 'window', align: 'right', dropOrder: 1, value: (r) => windowOf(r) },
  ];
  const out: string[] = [];
  const anyMeasured = measured('gpu memory') || measured('gpu energy') || measured('cpu energy');
  if (anyMeasured) out.push(...fittedTable({ title: 'GPU MEMORY AND ENERGY (timed loop)', columns, rows, width, minWidth, color }));
  else out.push('GPU MEMORY AND ENERGY (timed loop)');
  const multiModel = new Set(rows.map((r) => r.model)).size > 1;
  for (const which of ['gpu memory', 'gpu energy', 'cpu energy'] as const) {
    const missing = rows.filter((r) => isUnmeasurable(figureOf(r, which)));
    const groups = groupByReason(missing, (r) => (figureOf(r, which) as { unmeasurable: string }).unmeasurable, (r) => `${r.label} ${r.model !== '' && multiModel ? `${r.model} ` : ''}batch ${r.batchSize}`);
    const all = missing.length === rows.length;
    for (const g of groups) out.push(...wrap(`${LABEL[which]}: unmeasurable: ${g.reason}${all ? '' : ` (${g.cells.join(', ')})`}`, width));
  }
  if (anyMeasured) {
    const example = rows.map((r) => r.energy?.gpu).find((e) => e !== undefined && !isUnmeasurable(e)) ?? rows.map((r) => r.energy?.cpu).find((e) => e !== undefined && !isUnmeasurable(e));
    out.push(
      ...wrap(
        'window: the timed loops of every round, summed; GPU peak: the highest nvidia-smi reading of this process\'s memory in them; J/sample: joules over the window ÷ rows processed in it' +
          (example && !isUnmeasurable(example) ? ` (e.g. ${energyNote(example)})` : '') +
          '. Board power and RAPL count the whole board or package: idle power and other processes are included.',
        width,
      ),
    );
  }
  return out;
}

/** The window the row's figures cover. */
function windowOf(r: BaselineRow): string {
  const figures = [r.energy?.gpu, r.energy?.cpu, r.memory?.gpu].filter((f) => f !== undefined && !isUnmeasurable(f)) as { windowMs: number }[];
  const first = figures[0];
  return first ? formatDuration(first.windowMs) : '–';
}
