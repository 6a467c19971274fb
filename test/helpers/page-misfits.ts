/**
 * What on a dashboard page does not fit, read in the page itself
 * (`page.evaluate(panelMisfits, '.detail')`): issue 47 found subtitles cut
 * at a chart's right edge, panel titles cut to "tiny-bert (embedded def…",
 * value labels drawn over one another, a hockey stick's first point on its
 * y axis and a NOISY list of four lines, none of which a script error or a
 * screenshot comparison would catch. Each check is one sentence naming the
 * element, so a failure says what to fix.
 *
 * The function runs in the browser: it is self-contained (no imports, no
 * helpers from outside its body), as page.evaluate serialises its source.
 * The build has no DOM library (a global one would change Node's stream
 * types everywhere), so the few browser names it uses are declared here,
 * loosely, for this file alone.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const HTMLElement: any;
declare function getComputedStyle(el: any): any;
type Box = { left: number; right: number; top: number; bottom: number; width: number; height: number };

/** Every misfit in the panel matched by `selector`, one line each; [] when everything fits. */
export function panelMisfits(selector: string): string[] {
  const found: string[] = [];
  const panel = document.querySelector(selector);
  if (panel === null) return [`no element ${selector}`];
  const TOLERANCE = 1;
  const name = (el: any): string => {
    const cls = el.getAttribute('class') ?? '';
    const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim();
    return `<${el.tagName.toLowerCase()}${cls === '' ? '' : ` class="${cls}"`}> "${text.length > 90 ? `${text.slice(0, 90)}…` : text}"`;
  };
  const shown = (el: any): boolean => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const outer = panel.getBoundingClientRect();
  // The panel's padding box: an element may use the padding, not cross the border.
  const left = outer.left + panel.clientLeft;
  const right = left + panel.clientWidth;

  // 1. No element reaches past the panel's sides (a chart or table wider than its box, scrolled or not).
  const all: any[] = [...panel.querySelectorAll('*')].filter((el: any) => shown(el) && el.closest('option, select, .vega-actions') === null);
  for (const el of all) {
    const r = el.getBoundingClientRect();
    if (r.width === 0) continue;
    const past = Math.max(r.right - right, left - r.left);
    if (past > TOLERANCE) {
      // Report the outermost element that does not fit, not each of its children again.
      const parent = el.parentElement;
      const parentPast = parent === null || parent === panel ? 0 : Math.max(parent.getBoundingClientRect().right - right, left - parent.getBoundingClientRect().left);
      if (parentPast <= TOLERANCE) found.push(`${name(el)} reaches ${Math.round(past)} px past the panel`);
    }
  }

  // 2. No box hides or scrolls part of its content sideways.
  for (const el of all) {
    if (!(el instanceof HTMLElement)) continue;
    const style = getComputedStyle(el);
    if (style.overflowX === 'visible' && style.textOverflow !== 'ellipsis') continue;
    if (el.scrollWidth > el.clientWidth + TOLERANCE) found.push(`${name(el)} is ${el.scrollWidth - el.clientWidth} px wider than its box (${style.overflowX}, ${style.textOverflow})`);
  }

  for (const svg of [...panel.querySelectorAll('svg')] as any[]) {
    if (!shown(svg) || svg.closest('.vega-actions') !== null) continue;
    const box = svg.getBoundingClientRect();
    const texts: any[] = [...svg.querySelectorAll('text')].filter((t: any) => (t.textContent ?? '').trim() !== '');
    // 3. Every text of a chart lies inside its picture and is whole (vega cuts a label at its limit with "…").
    for (const t of texts) {
      const r = t.getBoundingClientRect();
      const past = Math.max(r.right - box.right, box.left - r.left, r.bottom - box.bottom, box.top - r.top);
      if (past > TOLERANCE) found.push(`chart text "${t.textContent}" lies ${Math.round(past)} px outside its chart`);
      if ((t.textContent ?? '').trimEnd().endsWith('…')) found.push(`chart text "${t.textContent}" is cut`);
    }
    // 4. Value labels (text marks) never overlap one another.
    const labels = texts.filter((t) => /\bmark-text\b/.test(t.parentElement?.getAttribute('class') ?? '') && /\brole-mark\b/.test(t.parentElement?.getAttribute('class') ?? ''));
    const rects: Box[] = labels.map((t) => t.getBoundingClientRect());
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) {
        const a = rects[i] as Box;
        const b = rects[j] as Box;
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 2 && h > 2) found.push(`labels "${labels[i]?.textContent}" and "${labels[j]?.textContent}" overlap`);
      }
    }
    // 5. No point is drawn on its y axis: a vertical axis line through the point's centre hides it.
    const axes: Box[] = [...svg.querySelectorAll('.role-axis-domain line')].map((l: any) => l.getBoundingClientRect()).filter((r: Box) => r.width < 2 && r.height > 10);
    for (const point of [...svg.querySelectorAll('.mark-symbol.role-mark path')] as any[]) {
      const r: Box = point.getBoundingClientRect();
      const cx = r.left + r.width / 2;
      const cy = r.top + r.height / 2;
      for (const axis of axes) {
        if (cy >= axis.top - 1 && cy <= axis.bottom + 1 && Math.abs(cx - axis.left) < 3) found.push(`a point (${point.closest('.role-mark')?.getAttribute('class')}) sits on a y axis at ${Math.round(cx - box.left)} px`);
      }
    }
    // 6. A list in a chart's header (the NOISY cells) takes at most one line; the table under the chart has the rest.
    const subtitle: string[] = [...svg.querySelectorAll('.role-title-subtitle text')].flatMap((t: any) => {
      const spans: any[] = [...t.querySelectorAll('tspan')];
      return spans.length > 0 ? spans.map((s) => s.textContent ?? '') : [t.textContent ?? ''];
    });
    subtitle.forEach((line, i) => {
      if (/^(NOISY|PARTIAL)\b/.test(line) && (line.trimEnd().endsWith(',') || (subtitle[i + 1] ?? '').startsWith('  '))) found.push(`the chart header's list "${line.slice(0, 40)}…" runs to more than one line`);
    });
  }

  // 7. No table is only a header.
  for (const table of [...panel.querySelectorAll('table')] as any[]) {
    if (shown(table) && table.querySelectorAll('tbody tr').length === 0) found.push(`${name(table)} has no rows`);
  }
  return found;
}

declare const window: any;

/** In the page: true once every chart box of the panel holds a drawn chart or a sentence, or is empty beside a table (a load comparison draws none). */
export function chartsDrawn(): boolean {
  const charts: any[] = [...document.querySelectorAll('.detail .chart')];
  const below = document.querySelector('.detail .below-chart');
  return charts.length > 0 && charts.every((c) => c.querySelector('svg.marks, p') !== null || (c.childElementCount === 0 && (below?.childElementCount ?? 0) > 0));
}

/** In the page: what changes while the panel is still being drawn (its markup's length, its charts). */
export function panelSignature(): string {
  return `${document.querySelector('.detail')?.innerHTML.length}:${document.querySelectorAll('.detail svg.marks').length}`;
}

/** In the page: how far the page itself scrolls sideways, in pixels (0 when it fits the window). */
export function pageOverflow(): number {
  return document.documentElement.scrollWidth - window.innerWidth;
}
