// One renderer for every scenario's panels: the server says what a tab
// holds (reports/dashboard-panels.ts: a chart, drop-downs, and under it
// notes, tables and more charts, a table as columns and cells of text or a
// number with its unit), and this lays it out as HTML. It names no
// scenario, so a scenario defined anywhere is drawn. Pure HTML (no DOM),
// so node tests read the same tables the page shows.
import { bytes, duration, esc, rate } from './format.js';

/** How each unit prints a number. */
const FORMATS = {
  ms: duration,
  bytes,
  number: rate,
  '/s': (v) => `${rate(v)}/s`,
  '%': (v) => `${(v * 100).toFixed(0)}%`,
};

/** A figure as text: `none` (default `n/a`) when it is null; `whole` keeps it on one line (its spaces do not break). */
function figureText(f) {
  if (f.value === null || f.value === undefined) return f.none ?? 'n/a';
  const text = (FORMATS[f.unit] ?? String)(f.value);
  return `${f.prefix ?? ''}${f.whole ? text.replace(/ /g, '\u00a0') : text}`;
}

function pieceHtml(piece) {
  if (typeof piece === 'string') return esc(piece);
  if (piece.bad) return `<span class="bad">${esc(piece.text)}</span>`;
  return esc(figureText(piece));
}

function cellHtml(cell, column) {
  const parts = cell !== null && typeof cell === 'object' && Array.isArray(cell.parts) ? cell : { parts: [cell] };
  const classes = [column?.align === 'right' ? 'num' : '', column?.wrap ? 'range' : '', parts.muted ? 'reason' : ''].filter(Boolean).join(' ');
  const title = parts.title === undefined ? '' : ` title="${esc(parts.title)}"`;
  return `<td${classes ? ` class="${classes}"` : ''}${title}>${parts.parts.map(pieceHtml).join('')}</td>`;
}

function headHtml(column) {
  return `<th${column.align === 'right' ? ' class="num"' : ''}${column.title ? ` title="${esc(column.title)}"` : ''}>${esc(column.header)}</th>`;
}

/** A row: its cells, then why it has none of the rest (spanning the remaining columns). */
function rowHtml(row, columns) {
  const cells = row.cells.map((c, i) => cellHtml(c, columns[i])).join('');
  const reason = row.reason === undefined ? '' : `<td colspan="${Math.max(1, columns.length - row.cells.length)}" class="reason">${esc(row.reason)}</td>`;
  const tag = row.tag === undefined ? '' : ` data-tag="${esc(row.tag)}"`;
  return `<tr${tag}${row.rule ? ' class="rule-above"' : ''}>${cells}${reason}</tr>`;
}

/** A table with its heading; a table without rows says so in its own words instead, when it has them. */
export function tableHtml(table) {
  const heading = table.heading ? `<h3 class="table-title">${esc(table.heading)}</h3>` : '';
  if (table.rows.length === 0 && table.empty) return `${heading}<p class="muted">${esc(table.empty)}</p>`;
  const head = table.columns.map(headHtml).join('');
  const body = table.rows.map((r) => rowHtml(r, table.columns)).join('');
  return `${heading}<table class="table${table.className ? ` ${esc(table.className)}` : ''}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

/** A note, with the link that shows only the next table's rows tagged as its filter says. */
function noteHtml(block) {
  const f = block.filter;
  const link = f ? ` <a href="#" data-filter="${esc(f.tag)}" data-show="${esc(f.show)}" data-undo="${esc(f.undo)}">${esc(f.show)}</a>` : '';
  return `<p class="note">${esc(block.note)}${link}</p>`;
}

/** What goes under a chart: notes, tables, and a box for each further chart (drawn into it afterwards, in order). */
export function belowHtml(blocks) {
  return blocks.map((b) => ('table' in b ? tableHtml(b.table) : 'chart' in b ? '<div class="chart"></div>' : noteHtml(b))).join('');
}

/** A panel's drop-down. */
export function selectHtml(s) {
  const opts = s.options.map((o) => `<option value="${esc(o.value)}"${String(o.value) === String(s.value) ? ' selected' : ''}>${esc(o.label)}</option>`).join('');
  return `<label class="control" for="${esc(s.id)}">${esc(s.label)} <select id="${esc(s.id)}">${opts}</select></label>`;
}

/** The sentence shown where a chart would be, or '' when there is none to say. */
export function emptyChartHtml(chart) {
  return chart.spec === null && chart.empty ? `<p class="muted">${esc(chart.empty)}</p>` : '';
}
