/**
 * Plain-text tables in the style of the Hugging Face transformers benchmark
 * (`=== TITLE ===` banner, dashed rules). Padding is computed on plain text
 * and colour is applied afterwards, so ANSI codes never break alignment.
 */

/** ANSI styles reports may use; ignored unless colour is on. */
export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';

const ANSI: Record<Style, string> = {
  bold: '\u001b[1m',
  dim: '\u001b[2m',
  red: '\u001b[31m',
  green: '\u001b[32m',
  yellow: '\u001b[33m',
  cyan: '\u001b[36m',
};
const RESET = '\u001b[0m';

/** Wraps `text` in an ANSI style when `color` is on, and returns it untouched otherwise. */
export function paint(text: string, style: Style | undefined, color: boolean): string {
  return color && style !== undefined && text !== '' ? `${ANSI[style]}${text}${RESET}` : text;
}

/** Visible length; reports only use single-width characters (µ, …, ×, –). ANSI colour codes take no room. */
export function visibleLength(text: string): number {
  return [...text.replace(/\u001b\[[0-9;]*m/gu, '')].length;
}

/**
 * Lines no wider than `width`: a longer line is broken at spaces (a long
 * word at the width), its continuation indented like the line. Colour is
 * dropped from a line that has to be broken, so no code is cut in half.
 */
export function fitLines(lines: readonly string[], width: number): string[] {
  return lines.flatMap((line) => {
    if (visibleLength(line) <= width) return [line];
    const plain = line.replace(/\u001b\[[0-9;]*m/gu, '');
    const body = plain.trimStart();
    const leading = plain.slice(0, plain.length - body.length);
    // A continuation sits two in from its line: under the text of a `- item` line.
    const indent = `${leading}  `;
    const room = Math.max(10, width - indent.length);
    const parts = wrap(body, room).flatMap((part) => {
      const chars = [...part];
      const pieces: string[] = [];
      for (let i = 0; i < chars.length; i += room) pieces.push(chars.slice(i, i + room).join(''));
      return pieces;
    });
    return parts.map((p, i) => (i === 0 ? leading + p : indent + p));
  });
}

/**
 * Shortens `text` to at most `max` characters, ending in `…`, cutting at a
 * word boundary when one is near so the reason stays readable.
 */
export function truncate(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  if (max <= 1) return '…'.slice(0, Math.max(0, max));
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  const head = space >= max * 0.6 ? cut.slice(0, space) : cut;
  return `${head.replace(/[\s,;:]+$/u, '')}…`;
}

/** Breaks `text` into lines of at most `width` characters at spaces; long words stay whole. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/u).filter((w) => w !== '')) {
    if (line === '') line = word;
    else if (visibleLength(line) + 1 + visibleLength(word) <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** A column's header and alignment: text left, numbers right so digits line up. */
export interface Column {
  readonly header: string;
  readonly align: 'left' | 'right';
  /** Never abbreviated to fit (text the caller has already wrapped to fit, such as a caveat). */
  readonly whole?: boolean;
}

/** A cell with a colour, kept apart from its text so padding ignores ANSI codes. */
export interface StyledText {
  readonly text: string;
  readonly style?: Style;
}

/** Plain text, or text with a style. */
export type TableCell = string | StyledText;

/** One row; failed cells use `rest` because they have a reason instead of numbers. */
export interface TableRow {
  /** Values of the first `cells.length` columns. */
  readonly cells: readonly TableCell[];
  /**
   * Text that spans all remaining columns, truncated to the table width.
   * Used for the reason of an errored or skipped cell, which has no numbers.
   */
  readonly rest?: TableCell;
  /** Draws a dashed rule above this row, to separate groups. */
  readonly ruleAbove?: boolean;
}

/** Everything a table needs; colour is passed in so rendering stays pure. */
export interface TableOptions {
  readonly title: string;
  readonly columns: readonly Column[];
  readonly rows: readonly TableRow[];
  readonly color: boolean;
  /** Stretches banner and rules to at least this width, so stacked tables line up. */
  readonly minWidth?: number;
  /**
   * The widest the table may be (the terminal's width). Wider, its widest
   * text (left-aligned) columns are abbreviated (cut with `…`), widest first,
   * never below their header; numbers are never cut. The caller drops whole
   * columns before that (fitted-table.ts).
   */
  readonly maxWidth?: number;
}

/** `text` cut to `max` characters with `…`, mid-word if need be: an abbreviated cell keeps as much as fits. */
function cut(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Narrowest a column is abbreviated to: its header, or this many characters. */
const MIN_ABBREVIATED = 6;

/**
 * Column widths shrunk until the table fits `maxWidth`: each step takes one
 * character off the widest column that is still above its floor (its header,
 * at least MIN_ABBREVIATED), so the longest texts give way first. Returns the
 * indexes of the columns it shortened.
 */
function abbreviate(widths: number[], columns: readonly Column[], maxWidth: number): Set<number> {
  const shortened = new Set<number>();
  // Only text is cut: a number with its end cut off would read as another number.
  const floor = columns.map((c, i) => (c.align === 'left' && c.whole !== true ? Math.max(MIN_ABBREVIATED, visibleLength(c.header)) : (widths[i] ?? 0)));
  const total = (): number => widths.reduce((a, b) => a + b, 0) + GAP.length * (columns.length - 1);
  while (total() > maxWidth) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (w > (floor[i] ?? 0) && (widest < 0 || w > (widths[widest] ?? 0))) widest = i;
    });
    if (widest < 0) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
    shortened.add(widest);
  }
  return shortened;
}

const GAP = '  ';

function textOf(cell: TableCell | undefined): string {
  return cell === undefined ? '' : typeof cell === 'string' ? cell : cell.text;
}

function styleOf(cell: TableCell | undefined): Style | undefined {
  return cell === undefined || typeof cell === 'string' ? undefined : cell.style;
}

function pad(text: string, width: number, align: 'left' | 'right'): string {
  const fill = ' '.repeat(Math.max(0, width - visibleLength(text)));
  return align === 'left' ? text + fill : fill + text;
}

/** A `===== TITLE =====` banner exactly `width` wide. */
export function banner(title: string, width: number, color: boolean): string {
  const inner = ` ${title} `;
  const side = Math.max(3, width - visibleLength(inner));
  const left = Math.floor(side / 2);
  return paint(`${'='.repeat(left)}${inner}${'='.repeat(side - left)}`, 'bold', color);
}

/**
 * Renders a titled table. Returns its lines, the width it used, and whether
 * any spanning text had to be cut, so the caller can print it in full below.
 */
export function renderTable(options: TableOptions): { lines: string[]; width: number; truncated: boolean; abbreviated: string[] } {
  const { columns, rows, color } = options;
  const widths = columns.map((c) => visibleLength(c.header));
  for (const row of rows) {
    row.cells.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, visibleLength(textOf(cell)));
    });
  }
  const shortened = options.maxWidth === undefined ? new Set<number>() : abbreviate(widths, columns, options.maxWidth);
  const tableWidth = widths.reduce((a, b) => a + b, 0) + GAP.length * (columns.length - 1);
  // Banner and rules never pass maxWidth, even when the columns could not be cut to it (numbers are never cut).
  const width = Math.min(Math.max(tableWidth, options.minWidth ?? 0), options.maxWidth ?? Infinity);
  const rule = paint('-'.repeat(width), 'dim', color);
  const header = columns.map((c, i) => pad(truncate(c.header, widths[i] ?? 0), widths[i] ?? 0, c.align)).join(GAP);
  const lines = [banner(options.title, width, color), rule, paint(header.trimEnd(), 'bold', color), rule];
  let truncated = false;
  for (const row of rows) {
    if (row.ruleAbove) lines.push(rule);
    const parts = row.cells.map((cell, i) => {
      const column = columns[i] as Column;
      const text = shortened.has(i) ? cut(textOf(cell), widths[i] ?? 0) : textOf(cell);
      return paint(pad(text, widths[i] ?? 0, column.align), styleOf(cell), color);
    });
    let line = parts.join(GAP);
    if (row.rest !== undefined) {
      const used = widths.slice(0, row.cells.length).reduce((a, b) => a + b, 0) + GAP.length * row.cells.length;
      const full = textOf(row.rest);
      const text = truncate(full, Math.max(10, width - used));
      if (text !== full) truncated = true;
      line += (row.cells.length > 0 ? GAP : '') + paint(text, styleOf(row.rest), color);
    }
    lines.push(line.trimEnd());
  }
  lines.push(rule);
  return { lines, width, truncated, abbreviated: [...shortened].map((i) => columns[i]?.header ?? '') };
}
