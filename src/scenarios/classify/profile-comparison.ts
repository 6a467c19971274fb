/**
 * `compare` of two profiled runs (`run --profile` on both): for each
 * (model, engine, variant, batch size) profiled in both, the op classes
 * whose ms per batch changed, by how much, and their shares before and
 * after. One untimed pass per side, so a change here says where time moved,
 * not that it is significant: the timed table above says that. Empty when
 * either run has no profile.
 */
import type { RunRecord } from '../../core/results.js';
import { classRowsOf, profiledCells, type ProfiledCell } from '../../../reports/profile-views.js';
import { renderTable, wrap, type TableRow } from '../../../reports/text-table.js';

/** One op class of one cell in both runs. */
export interface ClassChange {
  readonly cell: string;
  readonly opClass: string;
  readonly aMs: number;
  readonly bMs: number;
  readonly aShare: number;
  readonly bShare: number;
}

/** Changes smaller than this share of the cell's profiled engine time (on both sides) are left out as noise of one pass. */
const MIN_SHARE_CHANGE = 0.02;

function keyOf(p: ProfiledCell): string {
  return [p.cell.model, p.engine, p.variant, `batch ${p.cell.batchSize}`, p.cell.requestedThreads === null ? null : `${p.cell.requestedThreads} threads`].filter((x) => x !== null).join(' ');
}

/** The op-class changes of the cells profiled in both runs, largest change in ms first within each cell. */
export function profileChanges(a: RunRecord, b: RunRecord): ClassChange[] {
  const inA = new Map(profiledCells(a).filter((p) => p.cell.profile.unattributed === undefined).map((p) => [keyOf(p), p]));
  const out: ClassChange[] = [];
  for (const pb of profiledCells(b)) {
    const pa = inA.get(keyOf(pb));
    if (!pa || pb.cell.profile.unattributed !== undefined) continue;
    const ra = new Map(classRowsOf(pa).map((r) => [r.opClass, r]));
    const rb = new Map(classRowsOf(pb).map((r) => [r.opClass, r]));
    const changes = [...new Set([...ra.keys(), ...rb.keys()])].map((opClass) => ({
      cell: keyOf(pb),
      opClass,
      aMs: ra.get(opClass)?.msPerBatch ?? 0,
      bMs: rb.get(opClass)?.msPerBatch ?? 0,
      aShare: ra.get(opClass)?.share ?? 0,
      bShare: rb.get(opClass)?.share ?? 0,
    }));
    out.push(...changes.filter((c) => Math.abs(c.bShare - c.aShare) >= MIN_SHARE_CHANGE).sort((x, y) => Math.abs(y.bMs - y.aMs) - Math.abs(x.bMs - x.aMs)));
  }
  return out;
}

function ms(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

/** The section for `compare`'s terminal output; empty when the runs share no profiled cell. */
export function profileComparisonLines(a: RunRecord, b: RunRecord, width: number, color: boolean): string[] {
  const both = profiledCells(a).length > 0 && profiledCells(b).length > 0;
  if (!both) return [];
  const changes = profileChanges(a, b);
  const note = `op classes whose share of the profiled engine time moved by ${MIN_SHARE_CHANGE * 100} points or more, from one untimed profiled pass per run (run --profile); the timed table above says whether the engine time itself changed`;
  if (changes.length === 0) return ['', ...wrap(`WHERE THE TIME WENT: no op class moved by ${MIN_SHARE_CHANGE * 100} points or more of the profiled engine time in any cell profiled in both runs.`, width)];
  const rows: TableRow[] = changes.map((c, i) => {
    const ratio = c.aMs > 0 ? `${(c.bMs / c.aMs).toFixed(2)}×` : 'new';
    return {
      cells: [{ text: c.cell, style: 'cyan' }, c.opClass, ms(c.aMs), ms(c.bMs), `${c.bMs >= c.aMs ? '+' : ''}${ms(c.bMs - c.aMs)}`, ratio, `${(c.aShare * 100).toFixed(0)}% → ${(c.bShare * 100).toFixed(0)}%`],
      ruleAbove: i > 0 && changes[i - 1]?.cell !== c.cell,
    };
  });
  const table = renderTable({
    title: 'WHERE THE TIME WENT – op classes, B against A (ms per batch)',
    columns: [
      { header: 'cell', align: 'left' },
      { header: 'op class', align: 'left', whole: true },
      { header: 'A ms', align: 'right' },
      { header: 'B ms', align: 'right' },
      { header: 'B − A', align: 'right' },
      { header: 'B/A', align: 'right' },
      { header: 'share A → B', align: 'right' },
    ],
    rows,
    color,
    maxWidth: width,
  });
  return ['', ...table.lines, ...wrap(note, Math.max(60, Math.min(width, table.width)))];
}

/** The section as text to append to `compare`'s report (ends with a newline; empty without profiles on both sides). */
export function profileComparisonText(a: RunRecord, b: RunRecord, width: number, color: boolean): string {
  const lines = profileComparisonLines(a, b, width, color);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
