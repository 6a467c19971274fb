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
    // An indent that leaves no room (a wrapped table header under columns wider than the width) is dropped.
    const indented = plain.slice(0, plain.length - body.length);
    const leading = indented.length + 12 <= width ? indented : '';
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
/** Narrowest a whole column (a name that is never cut) is wrapped to. */
const MIN_WRAPPED = 10;
/** Fewest characters of a failed row's reason shown in the table (the rest is cut with `…`). */
const MIN_REST = 10;

/** The longest word of `text`: a header wraps at spaces, never narrower than this. */
function longestWord(text: string): number {
  return Math.max(0, ...text.split(/\s+/u).map(visibleLength));
}

/** `text` wrapped to `width`, its later lines indented four spaces under its first: a note or a reason that runs over one line. */
export function wrapHanging(text: string, width: number): string[] {
  return wrap(text, width - 4).map((line, i) => (i === 0 ? line : `    ${line}`));
}

/** Characters a name may break after when it wraps: between words, never inside one. */
const BREAK_AFTER = new Set([' ', '-', '·', '/']);

/** The widest piece of `text` that wrapWhole never breaks (a word with the `-`, `·` or `/` after it): a name column's floor. */
function longestUnbreakable(text: string): number {
  return Math.max(0, ...(text.match(/[^ \-·/]*[\-·/]?/gu) ?? []).map(visibleLength));
}

/**
 * `text` in pieces of at most `width` characters, broken after a space, a
 * `-`, a `·` or a `/` (an engine name reads `tfjs-wasm-` / `graph-model`), and at
 * the width only inside a word longer than it: every character is kept, so a
 * wrapped name is whole.
 */
export function wrapWhole(text: string, width: number): string[] {
  const pieces: string[] = [];
  let rest = [...text];
  while (rest.length > width) {
    const head = rest.slice(0, width);
    let at = -1;
    for (let i = head.length - 1; i > 0; i--) {
      if (BREAK_AFTER.has(head[i] ?? '')) {
        at = i + 1;
        break;
      }
    }
    if (at < 0) at = width;
    pieces.push(rest.slice(0, at).join('').trimEnd());
    rest = rest.slice(at);
    while (rest[0] === ' ') rest = rest.slice(1);
  }
  pieces.push(rest.join(''));
  return pieces;
}

/**
 * Column widths shrunk until the table fits `maxWidth`, in three steps, each
 * taking one character at a time off the widest column still above its
 * floor: text (left-aligned) columns are abbreviated (cut with `…`, never
 * below their header or MIN_ABBREVIATED); then headers wider than their
 * column's values wrap onto more header lines (a number column never gets
 * narrower than its widest value); then whole columns (names never cut)
 * wrap onto more lines of their row, between words (`wordWidths`: each
 * column's widest unbroken piece) before inside one. Returns the indexes of the columns it
 * cut short; wrapping loses nothing, so it is not reported.
 */
function abbreviate(widths: number[], valueWidths: readonly number[], wordWidths: readonly number[], columns: readonly Column[], maxWidth: number, restAfter: readonly number[]): Set<number> {
  const shortened = new Set<number>();
  // A failed row's reason spans the columns after its first k cells and is cut to the room left, never below MIN_REST: that room counts too.
  const prefix = (k: number): number => widths.slice(0, k).reduce((a, b) => a + b, 0) + GAP.length * k + MIN_REST;
  const total = (): number => Math.max(widths.reduce((a, b) => a + b, 0) + GAP.length * (columns.length - 1), ...restAfter.map(prefix));
  const shrink = (floor: readonly number[], mark: boolean): void => {
    while (total() > maxWidth) {
      let widest = -1;
      widths.forEach((w, i) => {
        if (w > (floor[i] ?? 0) && (widest < 0 || w > (widths[widest] ?? 0))) widest = i;
      });
      if (widest < 0) return;
      widths[widest] = (widths[widest] ?? 0) - 1;
      if (mark) shortened.add(widest);
    }
  };
  // Only text is cut: a number with its end cut off would read as another number.
  shrink(columns.map((c, i) => (c.align === 'left' && c.whole !== true ? Math.max(MIN_ABBREVIATED, visibleLength(c.header)) : (widths[i] ?? 0))), true);
  const headerFloor = (c: Column, i: number): number => Math.max(longestWord(c.header), c.align === 'left' && c.whole !== true ? MIN_ABBREVIATED : (valueWidths[i] ?? 0));
  shrink(columns.map((c, i) => Math.min(widths[i] ?? 0, c.whole === true ? Math.max(headerFloor(c, i), valueWidths[i] ?? 0) : headerFloor(c, i))), false);
  // Names wrap between words first (`transformers-` / `js`), a long model name giving way before an engine name is cut
  // mid-word; inside a word only when the terminal is narrower than the words (dropToFit has dropped what it could).
  const wrapFloor = (c: Column, i: number, words: number): number => (c.whole === true ? Math.min(widths[i] ?? 0, Math.max(MIN_WRAPPED, longestWord(c.header), words)) : (widths[i] ?? 0));
  shrink(columns.map((c, i) => wrapFloor(c, i, wordWidths[i] ?? 0)), false);
  shrink(columns.map((c, i) => wrapFloor(c, i, 0)), false);
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

/** A `===== TITLE =====` banner exactly `width` wide; a title too long for it is cut short (…) so the banner never is wider. */
export function banner(title: string, width: number, color: boolean): string {
  const inner = ` ${truncate(title, Math.max(1, width - 4))} `;
  const side = Math.max(2, width - visibleLength(inner));
  const left = Math.floor(side / 2);
  return paint(`${'='.repeat(left)}${inner}${'='.repeat(side - left)}`, 'bold', color);
}

/** A rendered table, and how it was made to fit (`maxWidth`). */
export interface RenderedTable {
  readonly lines: string[];
  /** Width of its banner and rules. */
  readonly width: number;
  /** Some spanning text (a failed cell's reason) was cut. */
  readonly truncated: boolean;
  /** Headers of the columns whose text was cut short (…). */
  readonly abbreviated: string[];
  /** Headers of the whole columns (names) wrapped onto a second line of their row. */
  readonly wrapped: string[];
  /** Its columns are wider than `maxWidth` even so (numbers are never cut). */
  readonly overflows: boolean;
}

/**
 * Renders a titled table. Returns its lines, the width it used, and whether
 * any spanning text had to be cut, so the caller can print it in full below.
 */
export function renderTable(options: TableOptions): RenderedTable {
  const { columns, rows, color } = options;
  const valueWidths = columns.map(() => 0);
  const wordWidths = columns.map(() => 0);
  for (const row of rows) {
    row.cells.forEach((cell, i) => {
      valueWidths[i] = Math.max(valueWidths[i] ?? 0, visibleLength(textOf(cell)));
      if (columns[i]?.whole === true) wordWidths[i] = Math.max(wordWidths[i] ?? 0, longestUnbreakable(textOf(cell)));
    });
  }
  const widths = columns.map((c, i) => Math.max(visibleLength(c.header), valueWidths[i] ?? 0));
  const shortened = options.maxWidth === undefined ? new Set<number>() : abbreviate(widths, valueWidths, wordWidths, columns, options.maxWidth, [...new Set(rows.filter((r) => r.rest !== undefined).map((r) => r.cells.length))]);
  const tableWidth = widths.reduce((a, b) => a + b, 0) + GAP.length * (columns.length - 1);
  // Banner and rules never pass maxWidth, even when the columns could not be cut to it (numbers are never cut).
  const width = Math.min(Math.max(tableWidth, options.minWidth ?? 0), options.maxWidth ?? Infinity);
  const rule = paint('-'.repeat(width), 'dim', color);
  // A header wider than its column wraps at spaces onto more header lines; a single word too long is cut.
  const headerParts = columns.map((c, i) => {
    const w = widths[i] ?? 0;
    return visibleLength(c.header) <= w ? [c.header] : wrap(c.header, w).map((part) => truncate(part, w));
  });
  const headerLines = Math.max(1, ...headerParts.map((p) => p.length));
  const headers = Array.from({ length: headerLines }, (_, line) =>
    columns.map((c, i) => pad(headerParts[i]?.[line] ?? '', widths[i] ?? 0, c.align)).join(GAP),
  );
  const lines = [banner(options.title, width, color), rule, ...headers.map((h) => paint(h.trimEnd(), 'bold', color)), rule];
  let truncated = false;
  for (const row of rows) {
    if (row.ruleAbove) lines.push(rule);
    // A whole cell wider than its column (a name) wraps onto more lines of its row; the other columns leave those lines blank.
    const pieces = row.cells.map((cell, i) => {
      const text = textOf(cell);
      const w = widths[i] ?? 0;
      if (shortened.has(i)) return [cut(text, w)];
      return visibleLength(text) > w && columns[i]?.whole === true ? wrapWhole(text, w) : [text];
    });
    const height = Math.max(1, ...pieces.map((p) => p.length));
    for (let line = 0; line < height; line++) {
      const parts = row.cells.map((cell, i) => {
        const column = columns[i] as Column;
        return paint(pad(pieces[i]?.[line] ?? '', widths[i] ?? 0, column.align), styleOf(cell), color);
      });
      let text = parts.join(GAP);
      if (line === 0 && row.rest !== undefined) {
        const used = widths.slice(0, row.cells.length).reduce((a, b) => a + b, 0) + GAP.length * row.cells.length;
        const full = textOf(row.rest);
        const shown = truncate(full, Math.max(MIN_REST, width - used));
        if (shown !== full) truncated = true;
        text += (row.cells.length > 0 ? GAP : '') + paint(shown, styleOf(row.rest), color);
      }
      lines.push(text.trimEnd());
    }
  }
  lines.push(rule);
  const wrapped = columns.filter((c, i) => c.whole === true && (widths[i] ?? 0) < (valueWidths[i] ?? 0)).map((c) => c.header);
  return { lines, width, truncated, abbreviated: [...shortened].map((i) => columns[i]?.header ?? ''), wrapped, overflows: tableWidth > (options.maxWidth ?? Infinity) };
}
