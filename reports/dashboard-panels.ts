/**
 * What the dashboard's page draws, said generically: a scenario's views
 * JSON carries one panel per tab (`panels`), each a chart, its drop-downs,
 * and under it notes, tables and more charts. A table is columns (header,
 * alignment) and rows of cells, each a text or a number with its unit; the
 * page (src/dashboard/web/panels.js) formats the numbers and lays it all
 * out, and never names a scenario. So a scenario's views, a plug-in's or a
 * test's included, are drawn with no edit to the page, and the figures stay
 * derived in reports/ (one result, many formats).
 */
import type { TopLevelSpec } from 'vega-lite';

/** A tab of the detail panel: `id` keys its panel in the views' `panels`. */
export interface DashboardTab {
  readonly id: string;
  readonly title: string;
}

/**
 * How the page prints a number: `ms` as a duration (`812 µs`, `3.40 ms`,
 * `1.20 s`), `bytes` as `1.20 MiB`, `number` with three significant digits
 * (`1.23k`), `/s` the same followed by `/s`, `%` a share (0.25) as `25%`.
 */
export type Unit = 'ms' | 'bytes' | 'number' | '/s' | '%';

/** A number with its unit; null prints `none` (default `n/a`). `prefix` goes before it (`±`); `whole` keeps it on one line. */
export interface Figure {
  readonly value: number | null;
  readonly unit: Unit;
  readonly none?: string;
  readonly prefix?: string;
  readonly whole?: boolean;
}

/** Part of a cell: text, a figure, or text marked as bad (a failed parity check). */
export type Piece = string | Figure | { readonly text: string; readonly bad: true };

/** A table cell: one piece, or pieces in a row with a tooltip (`title`) or shown muted. */
export type Cell = Piece | { readonly parts: readonly Piece[]; readonly title?: string; readonly muted?: boolean };

export interface Column {
  readonly header: string;
  /** Figures align right, names left. */
  readonly align: 'left' | 'right';
  /** The header's tooltip. */
  readonly title?: string;
  /** A right-aligned column whose cells may wrap between words (an interval `low – high`). */
  readonly wrap?: boolean;
}

export interface Row {
  /** The row's first cells; when `reason` is given, it fills the columns after them. */
  readonly cells: readonly Cell[];
  /** Why the cell has no figures (`failed: …`), spanning the remaining columns. */
  readonly reason?: string;
  /** A word the row can be filtered on (a note's `filter`); e.g. its verdict. */
  readonly tag?: string;
  /** A rule above the row (a total under its parts). */
  readonly rule?: boolean;
}

export interface Table {
  readonly columns: readonly Column[];
  readonly rows: readonly Row[];
  /** A heading above the table. */
  readonly heading?: string;
  /** A CSS class for the table besides `table` (tests and styles find it by it). */
  readonly className?: string;
  /** The sentence shown instead of a table with no rows. */
  readonly empty?: string;
}

/** A chart, or the sentence shown where it would be (nothing when `empty` is absent). */
export interface Chart {
  readonly spec: TopLevelSpec | null;
  readonly empty?: string;
}

/**
 * What goes under a panel's chart, in order: a note (with `filter`, a link
 * that shows only the rows of the next table tagged `tag`), a table, or
 * another chart.
 */
export type Block =
  | { readonly note: string; readonly filter?: { readonly tag: string; readonly show: string; readonly undo: string } }
  | { readonly table: Table }
  | { readonly chart: Chart };

/** A drop-down that asks the views again with `param` set to the option picked. */
export interface Select {
  readonly id: string;
  readonly label: string;
  readonly param: string;
  readonly options: readonly { readonly value: string; readonly label: string }[];
  readonly value: string;
}

/** One tab's panel: its drop-downs, its chart, and what goes under it. */
export interface Panel {
  readonly controls?: readonly Select[];
  readonly chart: Chart;
  readonly below: readonly Block[];
}

/** Shorthands for columns. */
export const left = (header: string, title?: string): Column => ({ header, align: 'left', ...(title === undefined ? {} : { title }) });
export const right = (header: string, title?: string): Column => ({ header, align: 'right', ...(title === undefined ? {} : { title }) });

/** A figure, `none` printed when it is null. */
export function figure(value: number | null | undefined, unit: Unit, none?: string): Figure {
  return { value: value ?? null, unit, ...(none === undefined ? {} : { none }) };
}

/** `1, 2` for thread settings, null being the engine default; a single setting or a list. */
export function threadsSetting(threads: number | null | readonly (number | null)[] | undefined): string {
  return (Array.isArray(threads) ? threads : [threads ?? null]).map((t: number | null) => (t === null ? 'default' : String(t))).join(', ');
}

/** `1, 2, 4` for a list setting, empty when absent. */
export function listSetting(values: readonly unknown[] | null | undefined): string {
  return (values ?? []).join(', ');
}
