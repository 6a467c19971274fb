/**
 * Every PNG at most 1,600 px wide. The widest thing in a chart was its
 * subtitle: vega sets each subtitle line on one line however long, so a
 * line listing the threads every engine read back made comparison.png
 * 3,204 px wide with the plot in its left 40%. Here every title and
 * subtitle line is wrapped to the width the plot leaves (measured in
 * DejaVu Sans, the font the charts are drawn in) before vega lays it out,
 * and renderPng lowers its pixel density for a chart still wider than
 * MAX_PNG_WIDTH (a very wide sweep), so no PNG is wider.
 */
import { measureDejaVu } from './chart-text-metrics.js';

/** The widest PNG, in pixels, whatever the chart. */
export const MAX_PNG_WIDTH = 1600;
/** The width title lines wrap at, in CSS pixels: with the default density of 2, an 800-pixel-wide chart is a 1,600-pixel PNG. */
export const TEXT_WIDTH = 760;

/** `text` broken at spaces into lines no wider than `maxPx` at `fontSize` (a word longer than that stays whole). */
export function wrapPixels(text: string, fontSize: number, maxPx: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line === '' ? word : `${line} ${word}`;
    if (line !== '' && measureDejaVu(next, fontSize, bold) > maxPx) {
      lines.push(line);
      line = `  ${word}`;
    } else line = next;
  }
  if (line !== '') lines.push(line);
  return lines;
}

interface Title {
  readonly text?: string | readonly string[];
  readonly subtitle?: string | readonly string[];
  readonly fontSize?: number;
  readonly subtitleFontSize?: number;
}

/** A long list as a footnote of at most two subtitle lines of TEXT_WIDTH, the rest left to `where` (the report or the CSV). */
export function footnote(text: string, where: string): string[] {
  const lines = wrapPixels(text, 11, TEXT_WIDTH);
  if (lines.length <= 2) return lines;
  const [first = '', second = ''] = lines;
  return [first, `${second.replace(/[,;]?\s*\S*$/u, '')}… (${where})`];
}

/** The spec with its title and subtitle lines wrapped to TEXT_WIDTH (each wrapped line hangs two spaces under its first). */
export function wrapTitle<S extends object>(spec: S, maxPx = TEXT_WIDTH): S {
  const title = (spec as { title?: unknown }).title;
  if (typeof title !== 'object' || title === null || Array.isArray(title)) return spec;
  const t = title as Title;
  const lines = (v: string | readonly string[] | undefined): string[] => (v === undefined ? [] : typeof v === 'string' ? [v] : [...v]);
  const text = lines(t.text).flatMap((l) => wrapPixels(l, t.fontSize ?? 13, maxPx, true));
  const subtitle = lines(t.subtitle).flatMap((l) => wrapPixels(l, t.subtitleFontSize ?? 11, maxPx));
  return { ...spec, title: { ...t, ...(t.text !== undefined ? { text } : {}), ...(t.subtitle !== undefined ? { subtitle } : {}) } };
}

/** The pixel density that keeps a chart `cssWidth` wide within MAX_PNG_WIDTH, at most `wanted`. */
export function densityFor(cssWidth: number, wanted: number): number {
  return cssWidth * wanted <= MAX_PNG_WIDTH ? wanted : MAX_PNG_WIDTH / cssWidth;
}

/** The width dashboard chart titles wrap at: a chart panel at 1366×768 leaves about this much beside the page's own margins. */
export const DASHBOARD_TEXT_WIDTH = 560;

/**
 * Every vega-lite spec (an object with `$schema`) anywhere in a dashboard
 * response, its title lines wrapped to DASHBOARD_TEXT_WIDTH: subtitles were
 * cut at the panel's right edge (the machine line lost) at 1366×768.
 */
export function wrapSpecTitles<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => wrapSpecTitles(v)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const o = value as Record<string, unknown>;
  if (typeof o['$schema'] === 'string') return wrapTitle(o, DASHBOARD_TEXT_WIDTH) as T;
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, wrapSpecTitles(v)])) as T;
}

/** How a chart's header lists cells (NOISY, PARTIAL, ✗ PARITY): at most `lines` lines of about `chars` characters, the rest counted ("and 9 more"). */
export interface ListRoom {
  readonly lines: number;
  readonly chars: number;
}

/**
 * The dashboard's: one line within DASHBOARD_TEXT_WIDTH at the subtitle's
 * 11 px (70 characters of at most about 7 px, and "and N more"). The Baseline header's NOISY
 * list ran to four lines and "…and 4 more"; the table under the chart names
 * every cell with its verdict.
 */
export const DASHBOARD_LISTS: ListRoom = { lines: 1, chars: 70 };
