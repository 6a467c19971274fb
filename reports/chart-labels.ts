/**
 * Text layout the charts do before drawing: value-label placement (vega-lite
 * has no label collision avoidance) and packing long subtitle lists, so
 * PNGs stay legible without a browser.
 *
 * Placement works in the plot's own pixels: each chart hands over where vega
 * will put its points (pixelScale maps a value the way vega's scale does,
 * from the same domain, padding and nice rounding) and each label's width
 * in the chart font (chart-text-metrics.ts). A label goes above its point,
 * else below, else right, else left; where every place would overlap
 * another label, a point marker, something the chart draws there
 * (obstacles) or leave the plot (and so cross an axis), it is left out.
 * The table beside the chart holds every number; a label on top of another
 * helps no one.
 */
import { measureDejaVu } from './chart-text-metrics.js';

/** Where a point's label goes; `none` when every place would overlap another label, a point or an axis. */
export type LabelPlace = 'above' | 'below' | 'right' | 'left' | 'none';

/** Plot height of a scaling panel in CSS pixels. */
export const PANEL_HEIGHT = 300;

/** Size of a value label's text, in CSS pixels. */
export const LABEL_FONT_SIZE = 10;

/** Pixel offsets of a label from its point, shared by the placement and the text marks that draw it (baseline middle; right and left labels aligned away from the point). */
export const LABEL_OFFSET = {
  above: { dy: -12, dx: 0 },
  below: { dy: 13, dx: 0 },
  right: { dy: 0, dx: 8 },
  left: { dy: 0, dx: -8 },
} as const;

/** The text mark's `align` for a label placed `where`. */
export function labelAlign(where: Exclude<LabelPlace, 'none'>): 'left' | 'right' | 'center' {
  return where === 'right' ? 'left' : where === 'left' ? 'right' : 'center';
}

/** A rectangle in plot pixels: x to the right, y down from the plot's top-left corner. */
export interface Box {
  readonly x0: number;
  readonly y0: number;
  readonly x1: number;
  readonly y1: number;
}

/** True when two boxes share more than an edge. */
export function intersects(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/** The line height of a label: the font size and a little leading. */
const lineHeight = (fontSize: number): number => Math.ceil(fontSize * 1.2);

/** The box of a label `width` px wide put `where` of a point at (x, y). */
export function labelBox(x: number, y: number, where: Exclude<LabelPlace, 'none'>, width: number, fontSize = LABEL_FONT_SIZE): Box {
  const o = LABEL_OFFSET[where];
  const h = lineHeight(fontSize) / 2;
  const cy = y + o.dy;
  const x0 = where === 'right' ? x + o.dx : where === 'left' ? x + o.dx - width : x - width / 2;
  return { x0, y0: cy - h, x1: x0 + width, y1: cy + h };
}

/** A point of a chart in plot pixels, the label it would carry, and the radius of its marker. */
export interface PlotPoint {
  readonly x: number;
  readonly y: number;
  readonly text: string;
  /** Half the marker's size in pixels (a point of area 60 is about 4.4); default 5. */
  readonly radius?: number;
}

const PLACES = ['above', 'below', 'right', 'left'] as const;

/**
 * Where each point's label goes (see the file's comment), points taken in
 * `order` (default: top of the plot first), so the first come have the
 * first choice. `plot` is the plot area; `obstacles` are other things drawn
 * in it (a goal line's caption) that no label may cover.
 */
export function placeInPlot(
  points: readonly PlotPoint[],
  plot: { readonly width: number; readonly height: number },
  opts: { readonly obstacles?: readonly Box[]; readonly order?: readonly number[]; readonly fontSize?: number } = {},
): LabelPlace[] {
  const fontSize = opts.fontSize ?? LABEL_FONT_SIZE;
  const markers = points.map((p): Box => {
    const r = p.radius ?? 5;
    return { x0: p.x - r, y0: p.y - r, x1: p.x + r, y1: p.y + r };
  });
  const taken: Box[] = [...(opts.obstacles ?? [])];
  const result: LabelPlace[] = points.map(() => 'none');
  const order = opts.order ?? points.map((_, i) => i).sort((i, j) => (points[i] as PlotPoint).y - (points[j] as PlotPoint).y);
  for (const i of order) {
    const p = points[i];
    if (p === undefined || p.text === '') continue;
    const width = measureDejaVu(p.text, fontSize, false);
    for (const where of PLACES) {
      const box = labelBox(p.x, p.y, where, width, fontSize);
      if (box.x0 < 0 || box.y0 < 0 || box.x1 > plot.width || box.y1 > plot.height) continue; // would cross an axis or leave the plot
      // Its own marker is left out: the offsets clear a point, and a label touching its own ring reads as its own.
      if (taken.some((t) => intersects(box, t)) || markers.some((m, k) => k !== i && intersects(box, m))) continue;
      result[i] = where;
      taken.push(box);
      break;
    }
  }
  return result;
}

/** How a chart's axis maps values: as vega does for these scale settings. */
export type ScaleKind =
  | { readonly type: 'linear'; readonly zero?: boolean; readonly nice?: boolean; readonly padding?: number }
  | { readonly type: 'log'; readonly padding?: number };

/** d3's tick step for a nice linear domain (d3-array tickIncrement), which vega's `nice: true` rounds to. */
function tickIncrement(start: number, stop: number, count: number): number {
  const step = (stop - start) / Math.max(0, count);
  const power = Math.floor(Math.log10(step));
  const error = step / 10 ** power;
  const factor = error >= Math.sqrt(50) ? 10 : error >= Math.sqrt(10) ? 5 : error >= Math.sqrt(2) ? 2 : 1;
  return power >= 0 ? 10 ** power * factor : -(10 ** -power) / factor;
}

/** `[lo, hi]` widened to d3's nice bounds for 10 ticks, as d3's linear `nice()` does. */
function niceDomain(lo: number, hi: number): [number, number] {
  let start = lo;
  let stop = hi;
  let previous: number | undefined;
  for (let i = 0; i < 10; i++) {
    const step = tickIncrement(start, stop, 10);
    if (step === previous || !Number.isFinite(step) || step === 0) break;
    if (step > 0) {
      start = Math.floor(start / step) * step;
      stop = Math.ceil(stop / step) * step;
    } else {
      start = Math.ceil(start * step) / step;
      stop = Math.floor(stop * step) / step;
    }
    previous = step;
  }
  return [start, stop];
}

/**
 * A value's distance in pixels from the low end of an axis `rangePx` long,
 * on a scale of `kind` whose domain is the extent of `values`: zero
 * included, padding in pixels at both ends and nice rounding as vega's
 * scale applies them (vega-encode configureDomain), so a label placed from
 * it sits where vega draws its point.
 */
export function pixelScale(kind: ScaleKind, values: readonly number[], rangePx: number): (v: number) => number {
  const finite = values.filter((v) => Number.isFinite(v) && (kind.type === 'linear' || v > 0));
  const t = kind.type === 'log' ? Math.log : (v: number): number => v;
  let lo = Math.min(...finite);
  let hi = Math.max(...finite);
  if (finite.length === 0) return () => rangePx / 2;
  if (kind.type === 'linear' && kind.zero === true) {
    lo = Math.min(lo, 0);
    hi = Math.max(hi, 0);
  }
  if (lo === hi) return () => rangePx / 2;
  let a = t(lo);
  let b = t(hi);
  const pad = kind.padding ?? 0;
  if (pad > 0) {
    const frac = rangePx / (rangePx - 2 * pad);
    const mid = (a + b) / 2;
    [a, b] = [mid + (a - mid) * frac, mid + (b - mid) * frac];
  }
  if (kind.type === 'linear' && kind.nice === true) [a, b] = niceDomain(a, b);
  return (v) => ((t(v) - a) / (b - a)) * rangePx;
}

/**
 * Packs `items` after `head` into subtitle lines of about `width` characters,
 * at most `maxLines`, ending with `and N more` rather than running off the picture.
 */
export function packLines(head: string, items: readonly string[], width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = head;
  let shown = 0;
  for (const item of items) {
    const sep = line === head || line === '' ? '' : ', ';
    if (line.length + sep.length + item.length > width && line !== head && line !== '') {
      if (lines.length + 1 >= maxLines) break;
      lines.push(`${line},`);
      line = '';
    }
    line += (line === head || line === '' ? '' : ', ') + item;
    shown++;
  }
  if (shown < items.length) line += ` and ${items.length - shown} more`;
  lines.push(line);
  return lines;
}
