// The Where the time goes tab of a `run --profile` benchmark: the terminal's WHERE THE TIME GOES tables
// (op classes × engines, ms per batch and share, the outside-kernels row, the profiled engine time beside the
// timed mean, each engine's source and unattributed reason) and the time-breakdown chart. Every figure comes
// from the server's view (reports/profile-dashboard-view.ts), the one profile.csv and the terminal read;
// this file only lays it out.
import { duration, esc } from './api.js';

function share(x) {
  return `${(x * 100).toFixed(0)}%`;
}

/** One table: op classes as rows, the engines of one batch size as columns, then the engine-time rows. */
function profileTable(t) {
  const head = `<tr><th>op class</th>${t.engines.map((e) => `<th class="num">${esc(e.engine)}</th>`).join('')}</tr>`;
  const row = (label, cells, cls = '') => `<tr class="${cls}"><td>${esc(label)}</td>${cells.join('')}</tr>`;
  const body = [
    ...t.rows.map((r) => row(r.opClass, r.cells.map((c) => `<td class="num">${c === null ? '–' : `${duration(c.msPerBatch)} ${share(c.share)}`}</td>`), r.outside ? 'rule-above' : '')),
    row('profiled engine time', t.engines.map((e) => `<td class="num">${duration(e.profiledMsPerBatch)}</td>`), 'rule-above'),
    row('timed mean', t.engines.map((e) => `<td class="num">${duration(e.timedMsPerBatch)}</td>`)),
    row('source', t.engines.map((e) => `<td class="num">${esc(e.source)}</td>`)),
    ...(t.engines.some((e) => e.unattributed !== null) ? [row('unattributed', t.engines.map((e) => `<td class="num reason">${esc(e.unattributed ?? '–')}</td>`))] : []),
  ].join('');
  return `<h3 class="table-title">${esc(t.title)}</h3><table class="table profile-table"><thead>${head}</thead><tbody>${body}</tbody></table>`;
}

/** Draws the tab: the chart, then each table and the lines under them; a run without profiles says how to get one. */
export async function renderProfileTab(view, chart, below, draw) {
  if (!view) {
    chart.innerHTML = '<p class="muted">This benchmark was not profiled: run with --profile (or tick "Profile each cell" when adding one) to see where the time goes.</p>';
    return;
  }
  const lines = [
    ...view.largest,
    ...(view.unclassified.length > 0 ? [`op types the taxonomy lacks, counted as other: ${view.unclassified.join(', ')}`] : []),
    ...view.notes,
    view.note,
  ];
  below.innerHTML = view.tables.map(profileTable).join('') + lines.map((l) => `<p class="note">${esc(l)}</p>`).join('');
  await draw(view.spec);
}
