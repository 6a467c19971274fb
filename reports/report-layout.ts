/**
 * The one layout rule of every terminal report (run, generate, train, load):
 * the width comes from the CLI (COLUMNS, else the terminal, else 80:
 * src/cli/terminal-width.ts), tables give way to it (they drop or
 * abbreviate columns and say so), prose wraps to it, and a last pass breaks
 * whatever line is still wider; `--wide` lays out without a limit. Before,
 * generate, train and load wrapped at a fixed 100 columns and their tables
 * ran as wide as their cells, whatever the terminal.
 */
import { fitLines, visibleLength } from './text-table.js';

/** What a report's caller says of the width: the CLI passes both. */
export interface ReportLayout {
  /** Terminal width; no line of the report is wider. */
  readonly width?: number;
  /** Every column of every table, however wide (`--wide`); `width` is then ignored. */
  readonly wide?: boolean;
  /**
   * A line wider than `width` that a section left for the last pass is an
   * error naming it, not a broken line: a section that relies on the last
   * pass prints tables whose rows break mid-row, so tests render with this
   * on to check that every section fits at its cause.
   */
  readonly strict?: boolean;
}

/**
 * Options of a one-screen report (load, generate, train): the layout,
 * colour, `--details` and the history id its `show` hints name. One type,
 * since the three reports ask the same of their caller.
 */
export interface ScreenReportOptions extends ReportLayout {
  readonly color?: boolean;
  /** Every view of the report's registry in order, as the report was before it fit one screen. */
  readonly details?: boolean;
  /** The history entry's id, for `inferbench show ID --view …`; the run folder's id when not given. */
  readonly historyId?: number | null;
}

/** `--wide`: wider than any table, so nothing is dropped or cut. */
export const UNLIMITED_WIDTH = 100_000;
/** Prose in a report's header wraps sooner than its tables: short lines scan faster. */
export const HEADER_WIDTH = 100;

/** The widest a line of the report may be; `fallback` when the caller gave no width (a library caller). */
export function layoutWidth(layout: ReportLayout, fallback: number): number {
  return layout.wide === true ? UNLIMITED_WIDTH : Math.max(40, layout.width ?? fallback);
}

/** The last word on width: a line a section could not fit is broken, never left wider (kept whole with `--wide`). */
export function fitReport(lines: readonly string[], layout: ReportLayout, maxWidth: number): string[] {
  if (layout.wide === true) return [...lines];
  if (layout.strict === true) {
    const over = lines.filter((l) => visibleLength(l) > maxWidth);
    if (over.length > 0) throw new Error(`${over.length} line(s) wider than ${maxWidth} columns left for the last pass:\n${over.join('\n')}`);
  }
  return fitLines(lines, maxWidth);
}
