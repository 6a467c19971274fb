/**
 * The width the terminal report is laid out for, and the progress area.
 * `--wide` prints every column whatever the width; otherwise `COLUMNS` when
 * set (a script or `COLUMNS=100 inferbench run | less` can ask for a width),
 * then the terminal's own width, and 80 when stdout is not a terminal or its
 * width is unknown, so a log or a pipe gets lines that fit a default terminal.
 */
import type { ParsedArgs } from './args.js';
import { fitLines } from '../../reports/text-table.js';

/** The width used when nothing says otherwise. */
export const FALLBACK_COLUMNS = 80;

/** Layout of the report: `{ wide: true }` for `--wide`, else the width to fit. */
export function reportWidth(args: Pick<ParsedArgs, 'flags'> | null, env: NodeJS.ProcessEnv = process.env, stdout: { readonly isTTY?: boolean; readonly columns?: number } = process.stdout): { readonly width: number; readonly wide: boolean } {
  if (args?.flags['wide'] === true) return { width: FALLBACK_COLUMNS, wide: true };
  const fromEnv = Number(env['COLUMNS']);
  if (env['COLUMNS'] !== undefined && Number.isInteger(fromEnv) && fromEnv > 0) return { width: fromEnv, wide: false };
  if (stdout.isTTY === true && typeof stdout.columns === 'number' && stdout.columns > 0) return { width: stdout.columns, wide: false };
  return { width: FALLBACK_COLUMNS, wide: false };
}

/** The layout of a one-screen report (load, generate, train): the width, and `--details` for every table. */
export interface ScreenLayout {
  readonly width: number;
  readonly wide: boolean;
  readonly details?: boolean;
}

/** `reportWidth` with `--details`, for the commands whose report is one screen unless asked for every table. */
export function screenLayout(args: Pick<ParsedArgs, 'flags'>): ScreenLayout {
  return { ...reportWidth(args), details: args.flags['details'] === true };
}

/**
 * Where progress goes (stderr): lines that stay (one per finished cell), and
 * a status line that the next one overwrites on a terminal (per round; off
 * a terminal it is not written, the cell's line sums its rounds up). With
 * `--quiet` nothing is written. `clear()` wipes the status line before the
 * report is printed. Every line fits the width the report takes, read from
 * stderr (COLUMNS, else stderr's terminal width, else 80): a line that stays
 * wraps under itself, a status line is cut short (the next overwrites it);
 * `--wide` keeps lines whole, as it keeps the report's.
 */
export class ProgressArea {
  private shown = false;
  private readonly layout: { readonly width: number; readonly wide: boolean };
  constructor(
    private readonly quiet: boolean,
    private readonly stream: { readonly isTTY?: boolean; readonly columns?: number; write(text: string): unknown } = process.stderr,
    options: { readonly wide?: boolean; readonly env?: NodeJS.ProcessEnv } = {},
  ) {
    this.layout = reportWidth(options.wide === true ? { flags: { wide: true } } : null, options.env ?? process.env, stream);
  }

  /** The width progress lines fit; null with `--wide`. */
  get width(): number | null {
    return this.layout.wide ? null : this.layout.width;
  }

  /** `text` as the lines it takes in the progress area: broken at spaces to the width, each continuation indented. */
  fit(text: string): string[] {
    return this.width === null ? [text] : fitLines([text], this.width);
  }

  line(text: string): void {
    if (this.quiet) return;
    this.message(text);
  }

  /** A line written even with `--quiet` (a warning), fitted like the others and never over a status line. */
  message(text: string): void {
    this.clear();
    this.stream.write(`${this.fit(text).join('\n')}\n`);
  }

  status(text: string): void {
    if (this.quiet || this.stream.isTTY !== true) return;
    const width = Math.max(20, (this.width ?? this.stream.columns ?? FALLBACK_COLUMNS) - 1);
    const shown = [...text].length > width ? `${[...text].slice(0, width - 1).join('')}…` : text;
    this.stream.write(`\r\u001b[2K${shown}`);
    this.shown = true;
  }

  clear(): void {
    if (!this.shown) return;
    this.stream.write('\r\u001b[2K');
    this.shown = false;
  }
}
