/**
 * WHERE THE TIME GOES (`run --profile`): op classes as rows, each profiled
 * (engine, batch size) as a column, ms per batch and share of its profiled
 * engine time, with the outside-kernels row; under it the profiled pass's
 * engine time beside the timed mean, so the instrument's overhead is in
 * plain sight. Then one line per engine naming its largest class and op
 * type, each cell's source, op types the taxonomy lacks, and the reason of
 * every cell that could not be attributed. Empty for a run without profiles.
 */
import type { RunRecord } from '../../core/results.js';
import { classRowsOf, OUTSIDE_CLASS, profiledCells, profileGroups, timedMsPerBatch, unclassifiedOps, type ProfileGroup, type ProfiledCell } from '../../../reports/profile-views.js';
import { profileTimeNote } from '../../../reports/profile-note.js';
import { renderTable, wrap, type Column, type TableRow } from '../../../reports/text-table.js';

function ms(x: number): string {
  return x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2);
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0)}%`;
}

/** A cell's largest op class (the outside-kernels part apart) and largest op type, short: `b8 matmul 41% (MatMul 40%)`. */
function largestOf(p: ProfiledCell): string {
  const profile = p.cell.profile;
  const at = `b${p.cell.batchSize}${p.variant ? ` ${p.variant}` : ''}`;
  if (profile.unattributed !== undefined) return `${at} unattributed: ${profile.unattributed}`;
  const top = classRowsOf(p).filter((r) => r.opClass !== OUTSIDE_CLASS).sort((a, b) => b.msPerBatch - a.msPerBatch)[0];
  const op = profile.ops[0];
  return `${at} ${top ? `${top.opClass} ${pct(top.share)}` : 'no kernel'}${op ? ` (${op.opType} ${pct(op.share)})` : ''}`;
}

/** One line per engine: its largest class and op type at each batch size. */
export function largestLines(cells: readonly ProfiledCell[]): string[] {
  const byEngine = new Map<string, ProfiledCell[]>();
  for (const p of cells) byEngine.set(`${p.cell.model} ${p.engine}`, [...(byEngine.get(`${p.cell.model} ${p.engine}`) ?? []), p]);
  const models = new Set(cells.map((p) => p.cell.model)).size;
  return [...byEngine.values()].map((list) => {
    const first = list[0] as ProfiledCell;
    return `${models > 1 ? `${first.cell.model} ` : ''}${first.engine}: largest ${list.map(largestOf).join(' · ')}`;
  });
}

/** One table: the cells of one model, variant and batch size, engines as columns. */
function groupTable(group: ProfileGroup, title: string, width: number, minWidth: number, color: boolean): string[] {
  const columns: Column[] = [{ header: 'op class', align: 'left', whole: true }, ...group.cells.map((p) => ({ header: p.engine, align: 'right' as const }))];
  const rows: TableRow[] = group.classes.map((c) => ({
    cells: [c, ...group.byClass.map((m) => {
      const r = m.get(c);
      return r ? `${ms(r.msPerBatch)} ${pct(r.share)}` : '–';
    })],
    ...(c === OUTSIDE_CLASS ? { ruleAbove: true } : {}),
  }));
  rows.push({ cells: ['profiled engine time', ...group.cells.map((p) => ms(p.cell.profile.engineMsPerBatch))], ruleAbove: true });
  rows.push({ cells: ['timed mean', ...group.cells.map((p) => ms(timedMsPerBatch(p)))] });
  return renderTable({ title, columns, rows, color, minWidth, maxWidth: width }).lines;
}

/** The section, fitted to `width`; empty when no cell was profiled. */
export function profileSection(run: RunRecord, width: number, minWidth: number, color: boolean): string[] {
  const cells = profiledCells(run);
  if (cells.length === 0) return [];
  const out: string[] = [];
  for (const group of profileGroups(run)) {
    if (out.length > 0) out.push('');
    out.push(...groupTable(group, `WHERE THE TIME GOES · ${group.key} · ms per batch and share`, width, minWidth, color));
  }
  const text = (line: string) => out.push(...wrap(line, width));
  for (const line of largestLines(cells)) text(line);
  const sources = new Map<string, string[]>();
  for (const p of cells) sources.set(p.cell.profile.source, [...(sources.get(p.cell.profile.source) ?? []), `${p.engine} b${p.cell.batchSize}`]);
  for (const [source, names] of sources) text(`source ${source}: ${names.join(', ')}`);
  const unknown = unclassifiedOps(run);
  if (unknown.length > 0) text(`op types the taxonomy lacks, counted as other: ${unknown.join(', ')}`);
  for (const p of cells) for (const note of p.cell.profile.notes ?? []) text(`${p.engine} b${p.cell.batchSize}: ${note}`);
  text(profileTimeNote);
  return out;
}
