// The detail panel of one benchmark: its settings, live progress, its
// scenario's tabs (for a classification run: baseline, core scaling at a
// chosen batch size, batch-size scaling at a chosen core count, where the
// time goes) plus a comparison with another benchmark. The server says what
// each tab holds (src/dashboard/entry-view.ts, reports/dashboard-panels.ts)
// and panels.js lays it out, whatever the scenario; chart specs are the
// same vega-lite specs the PNG reports use, drawn here with vega-embed.
import { api, duration, entryTitle, esc, shortDate } from './api.js';
import { belowHtml, emptyChartHtml, selectHtml, tableHtml } from './panels.js';

const EMBED_OPTIONS = {
  renderer: 'svg',
  actions: { export: true, source: false, compiled: false, editor: false },
  // Labels are cell names (model, precision, engine, length): vega's default limits cut them to one shared prefix
  // ("tiny-bert (embedded defau…"), so the page shows them whole; a wide chart scrolls inside its box.
  config: { mark: { tooltip: true }, legend: { labelLimit: 0 }, axis: { labelLimit: 0 } },
};

/** What the panel remembers between refreshes of the same entry. */
const state = { id: null, tab: null, query: {}, compareWith: null, views: null, token: 0, render: 0 };

/** A guard for one drawing: false once a newer drawing started or the panel was rebuilt. */
function drawing(panel) {
  const token = ++state.render;
  const chart = panel.querySelector('.chart');
  return () => token === state.render && chart.isConnected;
}

function badge(entryState) {
  return `<span class="badge state-${esc(entryState)}">${esc(entryState)}</span>`;
}

/** The spec with every legend under its plot in two columns, for a page too narrow for legends on the right. */
function legendsBelow(spec) {
  const walk = (node) => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const out = {};
    for (const [k, v] of Object.entries(node)) out[k] = k === 'legend' && v !== null && typeof v === 'object' ? { ...v, orient: 'bottom', direction: 'vertical', columns: 2 } : walk(v);
    return out;
  };
  return walk(spec);
}

/** The width vega drew a chart at, before the page's CSS fits it to its panel (its SVG's own width attribute). */
function drawnWidth(target) {
  return Number(target.querySelector('svg')?.getAttribute('width') ?? 0);
}

/** The room a chart has in its box: the box's width less its padding (vega-embed keeps room on the right for its menu). */
function roomFor(target) {
  const style = getComputedStyle(target);
  return target.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
}

async function embed(container, spec, current) {
  if (!current()) return;
  container.innerHTML = '';
  if (!spec) return;
  // The target is a block as wide as the panel, and its SVG is drawn no wider than that (app-style.css): a chart wider
  // than the panel is shown smaller, whole, never cut at the panel's edge or scrolled out of sight.
  const draw = async (s) => {
    const target = document.createElement('div');
    container.append(target);
    const result = await window.vegaEmbed(target, s, EMBED_OPTIONS);
    return { target, result };
  };
  try {
    let { target, result } = await draw(spec);
    // A legend on the right of a chart wider than the panel would make it smaller still: draw it below instead.
    if (current() && drawnWidth(target) > roomFor(target)) {
      result.finalize();
      target.remove();
      ({ target, result } = await draw(legendsBelow(spec)));
    }
    if (!current()) {
      result.finalize();
      target.remove();
    }
  } catch (err) {
    if (current()) container.innerHTML = `<p class="error">chart failed: ${esc(err.message)}</p>`;
  }
}

/** Draws the active tab from the fetched views: its panel as the server describes it. */
async function renderTab(panel, entry, entries) {
  const controls = panel.querySelector('.view-controls');
  const chart = panel.querySelector('.chart');
  const below = panel.querySelector('.below-chart');
  const views = state.views;
  const current = drawing(panel);
  controls.innerHTML = '';
  below.innerHTML = '';
  panel.querySelectorAll('.tab').forEach((t) => t.setAttribute('aria-selected', String(t.dataset.view === state.tab)));
  if (state.tab === 'compare') return renderCompare(panel, entry, entries, current);
  if (!views || !views.available) {
    chart.innerHTML = `<p class="muted">${esc(views?.reason ?? (entry.state === 'queued' ? 'Waiting in the queue.' : 'Nothing measured yet.'))}</p>`;
    return;
  }
  const shown = views.panels?.[state.tab];
  if (!shown) {
    chart.innerHTML = '<p class="muted">Nothing to show on this tab.</p>';
    return;
  }
  controls.innerHTML = (shown.controls ?? []).map(selectHtml).join('');
  for (const c of shown.controls ?? []) {
    controls.querySelector(`#${CSS.escape(c.id)}`).addEventListener('change', (e) => refreshViews(panel, entry, entries, { query: { ...state.query, [c.param]: e.target.value } }));
  }
  below.innerHTML = belowHtml(shown.below);
  below.querySelectorAll('[data-filter]').forEach((link) => link.addEventListener('click', (event) => filterRows(event, link)));
  chart.innerHTML = emptyChartHtml(shown.chart);
  if (!chart.innerHTML) await embed(chart, shown.chart.spec, current);
  // The further charts under the tables (a load run's latency CDF), each into its box, in order.
  const boxes = [...below.querySelectorAll('.chart')];
  const specs = shown.below.filter((b) => 'chart' in b).map((b) => b.chart);
  for (const [i, box] of boxes.entries()) {
    const c = specs[i];
    if (!c) continue;
    box.innerHTML = emptyChartHtml(c);
    if (!box.innerHTML) await embed(box, c.spec, current);
  }
}

/** A note's link: shows only the rows of the next table tagged as it says (the NOISY cells), or every row again. */
function filterRows(event, link) {
  event.preventDefault();
  let table = link.closest('p').nextElementSibling;
  while (table && table.tagName !== 'TABLE') table = table.nextElementSibling;
  if (!table) return;
  const only = link.dataset.on !== 'true';
  link.dataset.on = String(only);
  table.querySelectorAll('tbody tr').forEach((tr) => {
    tr.hidden = only && tr.dataset.tag !== link.dataset.filter;
  });
  link.textContent = only ? link.dataset.undo : link.dataset.show;
}

async function renderCompare(panel, entry, entries, current) {
  const controls = panel.querySelector('.view-controls');
  const chart = panel.querySelector('.chart');
  const below = panel.querySelector('.below-chart');
  chart.innerHTML = '';
  // Only benchmarks that share a cell with this one: never a train or generate run, never one with nothing in common.
  const comparable = await api('GET', `/api/runs/${entry.id}/comparable`);
  if (!current()) return;
  if (!comparable.ok) {
    chart.innerHTML = `<p class="error">${esc(comparable.data.error)}</p>`;
    return;
  }
  const common = new Map(comparable.data.candidates.map((c) => [c.id, c.common]));
  const others = entries.filter((e) => common.has(e.id));
  if (state.compareWith === null || !common.has(state.compareWith)) {
    // The benchmark it re-ran or was added against, else the one sharing the most cells (the newest of those).
    const linked = [entry.compareWith, entry.rerunOf].find((id) => common.has(id));
    const most = Math.max(0, ...common.values());
    state.compareWith = linked ?? others.find((e) => common.get(e.id) === most)?.id ?? null;
  }
  if (state.compareWith === null) {
    chart.innerHTML = '<p class="muted">No other benchmark shares a cell with this one (the same model, engine, batch size, threads used and sequence length).</p>';
    return;
  }
  controls.innerHTML = selectHtml({ id: 'compare-select', label: 'Compare with', options: others.map((e) => ({ value: String(e.id), label: `#${e.id} · ${entryTitle(e).engines} · ${shortDate(e.createdAt)} · ${common.get(e.id)} of ${comparable.data.cells} cells in common` })), value: String(state.compareWith) });
  controls.querySelector('select').addEventListener('change', (e) => {
    state.compareWith = Number(e.target.value);
    void renderTab(panel, entry, entries);
  });
  chart.innerHTML = '';
  const { ok, data } = await api('GET', `/api/compare?a=${state.compareWith}&b=${entry.id}`);
  if (!current()) return;
  if (!ok) {
    chart.innerHTML = `<p class="error">${esc(data.error)}</p>`;
    return;
  }
  const rows = data.cells
    .map((c) => `<tr><td>${esc(c.label)}</td><td class="num">${duration(c.aMeanMs)}</td><td class="num">${duration(c.bMeanMs)}</td><td>${esc(c.callText)}</td></tr>`)
    .join('');
  // What the A and B columns hold is the scenario's to say (load: a latency percentile; generate: TTFT); the page names no kind.
  const figure = data.figure ?? 'mean';
  // Tables the scenario puts above the cells (a load comparison's peaks), drawn as any table is.
  const tables = (data.tables ?? []).map(tableHtml).join('');
  below.innerHTML = `<p class="muted">A is #${data.a.id}, B is #${data.b.id} (this benchmark).</p>${tables}<table class="table"><thead><tr><th>cell</th><th class="num">A ${figure}</th><th class="num">B ${figure}</th><th>B vs A</th></tr></thead><tbody>${rows}</tbody></table>`;
  await embed(chart, data.spec, current);
}

async function refreshViews(panel, entry, entries, change = {}) {
  Object.assign(state, change);
  const token = ++state.token;
  const query = new URLSearchParams();
  for (const [param, value] of Object.entries(state.query)) query.set(param, value);
  const { ok, data } = await api('GET', `/api/runs/${entry.id}/views?${query}`);
  if (token !== state.token) return; // a newer refresh started meanwhile
  state.views = ok ? data : null;
  await renderTab(panel, entry, entries);
}

function linksLine(entry, entries) {
  const link = (id) => (entries.some((e) => e.id === id) ? `<a href="#/runs/${id}">#${id}</a>` : `#${id} (removed)`);
  const links = [];
  if (entry.rerunOf !== null) links.push(`re-run of ${link(entry.rerunOf)}`);
  if (entry.compareWith !== null) links.push(`compared with ${link(entry.compareWith)}`);
  return links.join(' · ');
}

/** Progress text: `3 / 8 cells · measuring onnx-cpu at batch 2`. */
export function progressHtml(entry, live) {
  const done = live?.done ?? entry.cellsDone;
  const total = live?.total ?? entry.cellsTotal;
  const pct = total ? Math.round((100 * done) / total) : 0;
  const current = live?.current ? ` · measuring ${esc(live.current.engine)} at batch ${live.current.batchSize}` : '';
  return `<div class="progress"><div class="bar"><span style="width:${pct}%"></span></div><span class="progress-text">${done} / ${total ?? '?'} cells${current}</span></div>`;
}

/** Draws the whole panel for `entry`; `actions` runs menu actions (rerun, cancel, remove). */
export async function renderDetail(panel, entry, entries, live, actions) {
  if (state.id !== entry.id) Object.assign(state, { id: entry.id, query: {}, compareWith: null, views: null });
  // The tabs its scenario gives (src/dashboard/entry-view.ts); a tab another benchmark had falls back to this one's first.
  const tabs = entry.tabs ?? [];
  if (!tabs.some((t) => t.id === state.tab)) state.tab = tabs[0]?.id ?? null;
  const { model, engines } = entryTitle(entry);
  const active = entry.state === 'running' || entry.state === 'queued';
  panel.innerHTML = `
    <div class="detail-head">
      <div>
        <h1>#${entry.id} · ${esc(model)} ${badge(entry.state)}</h1>
        <p class="meta">${esc(engines)} · ${esc(entry.settingsText ?? '')}</p>
        <p class="meta muted">added ${esc(shortDate(entry.createdAt))} from ${esc(entry.source)}${linksLine(entry, entries) ? ` · ${linksLine(entry, entries)}` : ''}</p>
      </div>
      <div class="head-actions">
        <button class="button" data-action="rerun">Re-run benchmark</button>
        ${active ? '<button class="button" data-action="cancel">Cancel</button>' : ''}
        <button class="button danger-outline" data-action="remove">Remove</button>
      </div>
    </div>
    <div class="live">${active ? progressHtml(entry, live) : ''}</div>
    ${entry.error ? `<p class="error-box">${esc(entry.error)}</p>` : ''}
    <nav class="tabs" role="tablist">${tabs.map((t) => `<button class="tab" role="tab" data-view="${esc(t.id)}" aria-selected="false">${esc(t.title)}</button>`).join('')}</nav>
    <div class="view-controls"></div>
    <div class="chart"></div>
    <div class="below-chart"></div>`;
  panel.querySelectorAll('[data-action]').forEach((b) => b.addEventListener('click', () => actions(b.dataset.action, entry)));
  panel.querySelectorAll('.tab').forEach((t) =>
    t.addEventListener('click', () => {
      state.tab = t.dataset.view;
      void renderTab(panel, entry, entries);
    }),
  );
  await refreshViews(panel, entry, entries);
}

/** Updates only the progress bar of the panel (no chart redraw). */
export function updateLive(panel, entry, live) {
  const box = panel.querySelector('.live');
  if (box && entry) box.innerHTML = progressHtml(entry, live);
}
