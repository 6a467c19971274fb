/**
 * Advance widths of DejaVu Sans, the chart font, so vega lays out titles,
 * legends and labels from real glyph widths. Without a canvas vega guesses
 * 0.8 em per character, which leaves wide empty margins in the PNG.
 * Read from the font's hmtx table, in thousandths of an em.
 */

/** Characters the tables cover: printable ASCII, then these extras. */
const EXTRA_CHARS = 'µ…×–·≥≤';
/** Width used for characters outside the tables. */
const FALLBACK_WIDTH = 640;

const REGULAR: readonly number[] = [
  318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636,
  636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632,
  575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685,
  611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579,
  278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
  636, 1000, 838, 500, 318, 838, 838,
];
const BOLD: readonly number[] = [
  348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696,
  696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683,
  683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771,
  724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665,
  343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
  736, 1000, 838, 500, 380, 838, 838,
];

function advance(table: readonly number[], char: string): number {
  const code = char.codePointAt(0) ?? 0;
  const index = code >= 32 && code < 127 ? code - 32 : EXTRA_CHARS.includes(char) ? 95 + EXTRA_CHARS.indexOf(char) : -1;
  return table[index] ?? FALLBACK_WIDTH;
}

/** Width in pixels of `text` set in DejaVu Sans at `fontSize`. */
export function measureDejaVu(text: string, fontSize: number, bold: boolean): number {
  const table = bold ? BOLD : REGULAR;
  let total = 0;
  for (const char of text) total += advance(table, char);
  return (total * fontSize) / 1000;
}

/** A vega scenegraph text item, as far as width measurement needs it. */
interface TextItem {
  readonly fontSize?: number | string | null;
  readonly fontWeight?: number | string | null;
  readonly limit?: number | null;
}

/**
 * A drop-in for vega's `textMetrics.width(item, text)`, the hook vega offers
 * for measuring text without a canvas (vl-convert uses it the same way).
 */
export function vegaTextWidth(item: TextItem, text: unknown): number {
  const value = text === null || text === undefined ? '' : String(text).trim();
  const size = item.fontSize !== null && item.fontSize !== undefined ? Number(item.fontSize) || 0 : 11;
  const weight = item.fontWeight;
  const bold = weight === 'bold' || weight === 'bolder' || (typeof weight === 'number' && weight >= 600);
  const width = measureDejaVu(value, size, bold);
  const limit = item.limit ?? 0;
  return limit > 0 ? Math.min(width, limit) : width;
}
