/**
 * The per-cell terminal tables' shared parts: a table that drops its least
 * important columns until it fits the terminal, and the identity columns
 * every per-cell table starts with (model, engine, threads read back, batch,
 * sequence length, host), so no table names a cell less fully than another.
 */
import type { CellResult, RunRecord } from '../src/core/results.js';
import { type Column, renderTable, type Style, type TableCell, type TableRow, wrap } from './text-table.js';
import type { BaselineRow } from './run-views.js';
import { varyingKeys } from './cell-names.js';

/** Colour of a cell's state in every terminal table (classify, generate, train, load): the one table of it. */
export const STATE_STYLE: Record<CellResult['state'] | 'partial' | 'interrupted', Style> = { completed: 'green', errored: 'red', skipped: 'yellow', partial: 'yellow', interrupted: 'yellow' };

/** A column that can be dropped (lowest `dropOrder` first, 0 never) when the table is too wide. */
export interface FitColumn<Row> extends Column {
  readonly dropOrder: number;
  readonly value: (row: Row) => TableCell;
}

export interface FitOptions<Row> {
  readonly title: string;
  readonly columns: readonly FitColumn<Row>[];
  readonly rows: readonly Row[];
  /** A group key per row; a dashed rule separates groups. */
  readonly group?: (row: Row) => string;
  /** Text spanning the measurement columns for rows that have none (errored, skipped). */
  readonly rest?: (row: Row) => TableCell | undefined;
  /** Columns kept for rows with `rest`. */
  readonly identityCount?: number;
  readonly width: number;
  readonly minWidth: number;
  readonly color: boolean;
}

/**
 * Drops the least important columns (lowest `dropOrder` above 0 first)
 * until `render` fits `width` losing nothing (long headers may wrap onto a
 * second header line), then lets the table abbreviate what is still too
 * wide, and wrap names as a last resort. Any column works, including ones
 * added later (an adapter column): one without a `dropOrder` of its own is
 * abbreviated, never lost. Returns the table and the headers it dropped and
 * abbreviated.
 */
export function dropToFit<C extends Column & { readonly dropOrder: number }>(
  all: readonly C[],
  width: number,
  render: (columns: readonly C[], maxWidth: number | undefined) => { lines: string[]; width: number; truncated: boolean; abbreviated: string[]; wrapped?: string[]; overflows?: boolean },
): { lines: string[]; width: number; truncated: boolean; dropped: string[]; abbreviated: string[] } {
  let columns = [...all];
  for (;;) {
    const natural = render(columns, undefined);
    if (natural.width <= width) return { ...natural, dropped: droppedHeaders(all, columns) };
    // Measured on the cells it prints, at the width: only headers wrapped, no text cut, no name wrapped, nothing over.
    const fitted = render(columns, width);
    if (fitted.abbreviated.length === 0 && (fitted.wrapped ?? []).length === 0 && fitted.overflows !== true) return { ...fitted, dropped: droppedHeaders(all, columns) };
    const droppable = columns.filter((c) => c.dropOrder > 0);
    if (droppable.length === 0) return { ...fitted, dropped: droppedHeaders(all, columns) };
    const first = droppable.reduce((a, b) => (b.dropOrder < a.dropOrder ? b : a));
    columns = columns.filter((c) => c !== first);
  }
}

function droppedHeaders(all: readonly Column[], kept: readonly Column[]): string[] {
  return all.filter((c) => !kept.includes(c)).map((c) => c.header);
}

/** The line under a table that had to give way: which columns it left out or cut, and where they are in full. */
export function fitNote(fit: { readonly dropped: readonly string[]; readonly abbreviated: readonly string[] }, width: number): string[] {
  const parts = [fit.dropped.length > 0 ? `${fit.dropped.join(', ')} not shown` : '', fit.abbreviated.length > 0 ? `${fit.abbreviated.join(', ')} cut short (…)` : ''].filter((p) => p !== '');
  if (parts.length === 0) return [];
  return wrap(`To fit ${width} columns: ${parts.join('; ')}. results.csv has every column; --wide prints them all.`, width);
}

/** Renders a table, dropping optional columns until it fits `width`, and says what it left out. */
export function fittedTable<Row>(o: FitOptions<Row>): string[] {
  const fit = dropToFit(o.columns, o.width, (columns, maxWidth) => {
    const rows: TableRow[] = o.rows.map((row, i) => {
      const previous = o.rows[i - 1];
      const ruleAbove = o.group !== undefined && previous !== undefined && o.group(previous) !== o.group(row);
      const rest = o.rest?.(row);
      if (rest === undefined) return { cells: columns.map((c) => c.value(row)), ruleAbove };
      return { cells: columns.slice(0, o.identityCount ?? 0).map((c) => c.value(row)), rest, ruleAbove };
    });
    return renderTable({ title: o.title, columns, rows, color: o.color, minWidth: Math.min(o.minWidth, o.width), ...(maxWidth !== undefined ? { maxWidth } : {}) });
  });
  return [...fit.lines, ...fitNote(fit, o.width)];
}

/** Threads as the engine reported them; the request beside them when it differs, `?` when nothing was read back. */
export function threadsText(row: { readonly requestedThreads: number | null; readonly threads: number | null; readonly state?: CellResult['state'] }): string {
  const { threads, requestedThreads: asked } = row;
  if (threads === null) return asked === null ? (row.state === 'skipped' ? '–' : 'default') : `? (asked ${asked})`;
  return asked !== null && asked !== threads ? `${threads} (asked ${asked})` : String(threads);
}

/** A failed row's text across the measurement columns. */
export function failedRest(row: BaselineRow): TableCell | undefined {
  return row.state === 'completed' ? undefined : { text: `${row.state}: ${row.reason ?? ''}`, style: STATE_STYLE[row.state] };
}

/** Identity columns shared by the per-cell tables: never dropped. */
export function identityColumns(run: RunRecord, rows: readonly BaselineRow[]): FitColumn<BaselineRow>[] {
  // The same rule as every line that names a cell (cell-names.ts); seq shows whenever inputs were fixed lengths.
  const varying = varyingKeys(run.cells);
  const multiModel = varying.model;
  const hasSeq = rows.some((r) => r.sequenceLength !== null);
  const hasHost = varying.host;
  return [
    // Whole: a cut model, engine or host name could make two rows read as one cell.
    ...(multiModel ? [{ header: 'model', align: 'left' as const, whole: true, dropOrder: 0, value: (r: BaselineRow) => r.model }] : []),
    { header: 'engine', align: 'left', whole: true, dropOrder: 0, value: (r) => ({ text: `${r.shown}${r.adapterSuffix}`, style: 'cyan' }) },
    ...(hasHost ? [{ header: 'host', align: 'left' as const, whole: true, dropOrder: 0, value: (r: BaselineRow) => r.key.host ?? 'local' }] : []),
    { header: 'threads', align: 'right', dropOrder: 0, value: threadsText },
    { header: 'batch', align: 'right', dropOrder: 0, value: (r) => String(r.batchSize) },
    ...(hasSeq ? [{ header: 'seq', align: 'right' as const, dropOrder: 0, value: (r: BaselineRow) => (r.sequenceLength === null ? '–' : String(r.sequenceLength)) }] : []),
  ];
}

/** Flags as one table cell: red for wrong outputs, yellow otherwise. */
export function flagsCell(flags: readonly string[]): TableCell {
  if (flags.length === 0) return '';
  return { text: flags.join(' '), style: flags.some((f) => f.startsWith('✗')) ? 'red' : 'yellow' };
}

/** A column of a per-cell table of generate or train: a measurement, read from a completed cell. */
export interface CellColumn<Done> extends Column {
  /** Lowest dropped first when the table is too wide; 0 or absent: never dropped. */
  readonly dropOrder?: number;
  readonly value: (cell: Done) => TableCell;
}

/**
 * The per-cell tables of generate and train: identity cells on every row,
 * the measurement columns for completed cells, a failed cell's reason across
 * the rest. Fitted like run's tables (dropToFit): the least important
 * columns go first, then text is cut short, and names (whole columns) wrap
 * rather than being cut.
 */
export function cellTable<Cell, Done extends Cell>(o: {
  readonly title: string;
  readonly identity: readonly (Column & { readonly dropOrder?: number })[];
  readonly identityCells: (cell: Cell) => readonly TableCell[];
  readonly columns: readonly CellColumn<Done>[];
  readonly cells: readonly Cell[];
  readonly done: (cell: Cell) => cell is Done;
  readonly reason: (cell: Cell) => TableCell;
  readonly ruleAbove: (cell: Cell, previous: Cell) => boolean;
  readonly color: boolean;
  readonly minWidth: number;
  readonly maxWidth: number;
}): { lines: string[]; width: number; dropped: string[]; abbreviated: string[] } {
  type Placed = Column & { readonly dropOrder: number; readonly index: number; readonly identity: boolean };
  const all: Placed[] = [
    ...o.identity.map((c, index) => ({ ...c, dropOrder: c.dropOrder ?? 0, index, identity: true })),
    ...o.columns.map((c, index) => ({ header: c.header, align: c.align, ...(c.whole ? { whole: true } : {}), dropOrder: c.dropOrder ?? 0, index, identity: false })),
  ];
  return dropToFit(all, o.maxWidth, (columns, maxWidth) => {
    const rows: TableRow[] = o.cells.map((cell, i) => {
      const previous = o.cells[i - 1];
      const ruleAbove = previous !== undefined && o.ruleAbove(cell, previous);
      const id = o.identityCells(cell);
      const identity = columns.filter((c) => c.identity).map((c) => id[c.index] ?? '');
      if (!o.done(cell)) return { cells: identity, rest: o.reason(cell), ruleAbove };
      return { cells: [...identity, ...columns.filter((c) => !c.identity).map((c) => o.columns[c.index]?.value(cell) ?? '')], ruleAbove };
    });
    return renderTable({ title: o.title, columns, rows, color: o.color, minWidth: Math.min(o.minWidth, o.maxWidth), ...(maxWidth !== undefined ? { maxWidth } : {}) });
  });
}

/**
 * A table built row by row (cells in column order), fitted like the others:
 * columns with a `dropOrder` go, least important first, then text is cut
 * short and names wrap (dropToFit). A row with `rest` keeps its first cells.
 */
export function fittedRows(o: {
  readonly title: string;
  readonly columns: readonly (Column & { readonly dropOrder?: number })[];
  readonly rows: readonly TableRow[];
  readonly color: boolean;
  readonly minWidth: number;
  readonly maxWidth: number;
}): { lines: string[]; width: number; dropped: string[]; abbreviated: string[] } {
  const all = o.columns.map((c, index) => ({ ...c, dropOrder: c.dropOrder ?? 0, index }));
  return dropToFit(all, o.maxWidth, (columns, maxWidth) => {
    const kept = new Set(columns.map((c) => c.index));
    const rows = o.rows.map((r) => ({ ...r, cells: r.cells.filter((_, i) => kept.has(i)) }));
    return renderTable({ title: o.title, columns, rows, color: o.color, minWidth: Math.min(o.minWidth, o.maxWidth), ...(maxWidth !== undefined ? { maxWidth } : {}) });
  });
}
