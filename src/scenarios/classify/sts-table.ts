/**
 * STS quality beside the speed table: for a feature-extraction run on
 * pairs data, each cell's Spearman correlation of cosine against the gold
 * score (MTEB's STS metric), over every pair of one pass, so a faster
 * engine or a quantized variant that moved the vectors shows it here.
 */
import type { CompletedCell, RunRecord } from '../../core/results.js';
import { formatRate } from '../../core/units.js';
import { type FitColumn, fittedTable, identityColumns } from '../../../reports/fitted-table.js';
import { orderedCells } from '../../../reports/run-summary.js';
import { type BaselineRow, baselineRows } from '../../../reports/run-views.js';
import { wrap } from '../../../reports/text-table.js';

/** A cell's Spearman as shown: the figure, or `n/a: <why>` (never NaN). */
export function stsText(sts: CompletedCell['sts'] | null): string {
  if (!sts) return 'n/a: saw part of a pass';
  // Records written before `why` existed stored NaN, which JSON keeps as null.
  return typeof sts.spearman === 'number' && Number.isFinite(sts.spearman) ? sts.spearman.toFixed(4) : `n/a: ${sts.why ?? 'not defined for these pairs'}`;
}

/** The STS table, or nothing when no cell ran STS pairs. */
export function stsSection(run: RunRecord, width: number, color: boolean): string[] {
  const cells = orderedCells(run);
  const views = baselineRows(run);
  const rows = views
    .map((row, i) => ({ row, cell: cells[i] }))
    .filter((x): x is { row: BaselineRow; cell: CompletedCell } => x.cell?.state === 'completed' && x.cell.sts !== undefined);
  if (rows.length === 0) return [];
  const stsOf = new Map(rows.map((x) => [x.row, x.cell.sts ?? null]));
  const columns: FitColumn<BaselineRow>[] = [
    ...identityColumns(run, rows.map((x) => x.row)),
    { header: 'STS spearman', align: 'right', dropOrder: 0, value: (r) => stsText(stsOf.get(r) ?? null) },
    { header: 'pairs', align: 'right', dropOrder: 0, value: (r) => String(stsOf.get(r)?.pairs ?? '–') },
    { header: 'samples/s', align: 'right', dropOrder: 1, value: (r) => (r.samplesPerSecond === null ? '–' : formatRate(r.samplesPerSecond)) },
  ];
  return [
    ...fittedTable({ title: 'STS QUALITY', columns, rows: rows.map((x) => x.row), group: (r) => `${r.model}\u0000${r.batchSize}`, width, minWidth: 40, color }),
    ...wrap('STS spearman: Spearman correlation between the cosine of each pair\'s two embeddings and its gold score (MTEB\'s STS metric), over every pair of one pass, the same pairs on every engine; samples/s counts pairs (each embeds two texts).', width),
  ];
}
