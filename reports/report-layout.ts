/**
 * The one layout rule of every terminal report (run, generate, train, load):
 * the width comes from the CLI (COLUMNS, else the terminal, else 80:
 * src/cli/terminal-width.ts), tables give way to it (they drop or
 * abbreviate columns and say so), prose wraps to it, and a last pass breaks
 * whatever line is still wider; `--wide` lays out without a limit. Before,
 * generate, train and load wrapped at a fixed 100 columns and their tables
 * ran as wide as their cells, whatever the terminal.
 */
import { fitLines } from './text-table.js';

/** What a report's caller says of the width: the CLI passes both. */
export interface ReportLayout {
  /** Terminal width; no line of the report is wider. */
  readonly width?: number;
  /** Every column of every table, however wide (`--wide`); `width` is then ignored. */
  readonly wide?: boolean;
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
  return layout.wide === true ? [...lines] : fitLines(lines, maxWidth);
}
