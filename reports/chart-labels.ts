/**
 * Text layout the charts do before drawing: value-label placement on line
 * charts (vega-lite has no label collision avoidance) and packing long
 * subtitle lists, so PNGs stay legible without a browser.
 */

/** Where a point's label goes; `none` when every place would overlap another label or point. */
export type LabelPlace = 'above' | 'below' | 'right' | 'none';

/** Plot height of a scaling panel in CSS pixels; placement reasons in fractions of it. */
export const PANEL_HEIGHT = 300;

/** Pixel offsets of a label from its point, shared by the placement and the text marks that draw it. */
export const LABEL_OFFSET = { above: { dy: -12, dx: 0 }, below: { dy: 13, dx: 0 }, right: { dy: 0, dx: 8 } } as const;

/** Half the height of a 10 px label (and of a point marker), in pixels. */
const HALF_HEIGHT_PX = 7;

/**
 * Puts each point's label above its point, else below, else to its right,
 * else nowhere, so labels never overlap each other or a point at the same x
 * (the tables hold every number; the chart must stay legible). Works in
 * fractions of the plot height, on a log or zero-based linear axis; points
 * at different x are far enough apart not to collide.
 */
export function placeLabels(points: readonly { x: number; v: number }[], log: boolean): LabelPlace[] {
  const pos = (v: number): number => (log ? Math.log(Math.max(v, 1e-12)) : v);
  const values = points.map((p) => pos(p.v));
  const max = Math.max(...values);
  const min = log ? Math.min(...values) : 0;
  const span = max - min > 0 ? (max - min) * 1.1 : 1;
  const u = values.map((v) => (v - min) / span);
  const half = HALF_HEIGHT_PX / PANEL_HEIGHT;
  const result: LabelPlace[] = points.map(() => 'none');
  const taken = new Map<string, [number, number][]>();
  const order = points.map((_, i) => i).sort((i, j) => (u[j] as number) - (u[i] as number));
  for (const i of order) {
    const x = (points[i] as { x: number }).x;
    const here = u[i] as number;
    const markers = points.flatMap((p, k) => (p.x === x && k !== i ? [[(u[k] as number) - half, (u[k] as number) + half] as [number, number]] : []));
    for (const where of ['above', 'below', 'right'] as const) {
      // Labels beside a point share their band only with other labels beside points.
      const lane = where === 'right' ? `${x}:right` : `${x}`;
      const used = taken.get(lane) ?? [];
      const centre = here - LABEL_OFFSET[where].dy / PANEL_HEIGHT;
      const box: [number, number] = [centre - half, centre + half];
      if (box[0] < 0) continue; // would sit on the x axis
      if ([...used, ...(where === 'right' ? [] : markers)].some(([lo, hi]) => box[0] < hi && lo < box[1])) continue;
      result[i] = where;
      taken.set(lane, [...used, box]);
      break;
    }
  }
  return result;
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
