/**
 * The width the terminal report is laid out for, and the progress area.
 * `--wide` prints every column whatever the width; otherwise `COLUMNS` when
 * set (a script or `COLUMNS=100 inferbench run | less` can ask for a width),
 * then the terminal's own width, and 80 when stdout is not a terminal or its
 * width is unknown, so a log or a pipe gets lines that fit a default terminal.
 */
import type { ParsedArgs } from './args.js';

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

/**
 * Where progress goes (stderr): lines that stay (one per finished cell), and
 * a status line that the next one overwrites on a terminal (per round; off
 * a terminal it is not written, the cell's line sums its rounds up). With
 * `--quiet` nothing is written. `clear()` wipes the status line before the
 * report is printed.
 */
export class ProgressArea {
  private shown = false;
  constructor(
    private readonly quiet: boolean,
    private readonly stream: { readonly isTTY?: boolean; readonly columns?: number; write(text: string): unknown } = process.stderr,
  ) {}

  line(text: string): void {
    if (this.quiet) return;
    this.clear();
    this.stream.write(`${text}\n`);
  }

  status(text: string): void {
    if (this.quiet || this.stream.isTTY !== true) return;
    const width = Math.max(20, (this.stream.columns ?? FALLBACK_COLUMNS) - 1);
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
