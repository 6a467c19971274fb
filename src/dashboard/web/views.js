// The detail panel of one benchmark: its settings, live progress, and the
// metrics three ways (baseline, core scaling at a chosen batch size,
// batch-size scaling at a chosen core count) plus a comparison with another
// benchmark. Chart specs come from the server (the same vega-lite specs the
// PNG reports use) and are drawn here with vega-embed.
import { api, duration, entryKind, entryTitle, esc, rate, shortDate } from './api.js';
import { loadPeakTable, loadRateTable } from './load-tables.js';
import { renderProfileTab } from './profile-view.js';
import { renderScenarioTab, settingsLine, TABS_BY_KIND } from './scenario-views.js';

const EMBED_OPTIONS = {
  renderer: 'svg',
  actions: { export: true, source: false, compiled: false, editor: false },
  // Labels are cell names (model, precision, engine, length): vega's default limits cut them to one shared prefix
  // ("tiny-bert (embedded defau…"), so the page shows them whole; a wide chart scrolls inside its box.
  config: { mark: { tooltip: true }, legend: { labelLimit: 0 }, axis: { labelLimit: 0 } },
};

/** What the panel remembers between refreshes of the same entry. */
const state = { id: null, tab: 'baseline', batchSize: null, threads: undefined, compareWith: null, views: null, token: 0, render: 0 };

/** A guard for one drawing: false once a newer drawing started or the panel was rebuilt. */
function drawing(panel) {
  const token = ++state.render;
  const chart = panel.querySelector('.chart');
  return () => token === state.render && chart.isConnected;
}

function badge(entryState) {
  return `<span class="badge state-${esc(entryState)}">${esc(entryState)}</span>`;
}

function threadValue(text) {
  return text === 'default' ? null : Number(text);
}

function threadLabel(threads) {
  return threads === null ? 'engine default' : `${threads} core${threads === 1 ? '' : 's'}`;
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

/** The key columns a run's rows differ in (the server's keyColumns): model, variant, sequence length; the engine label names threads and host. */
const KEY_COLUMNS = [
  ['model', 'model', (k) => k.baseModel ?? k.model],
  ['variant', 'variant', (k) => k.variant ?? '–'],
  ['sequenceLength', 'seq', (k) => k.sequenceLength ?? 'text'],
];

function baselineTable(rows, columns = {}) {
  if (rows.length === 0) return '<p class="muted">No cell measured yet.</p>';
  const keys = KEY_COLUMNS.filter(([name]) => columns[name]);
  const body = rows
    .map((r) => {
      // Every figure comes from the server's view rows (reports/views.ts): engine time per batch as the mean of round means,
      // one pass as the unit, threads read back; a cell without a whole pass has no total and no samples/s.
      const l = r.latency;
      const flags = (r.flags ?? []).filter((f) => f !== '✗ PARITY' && f !== 'NOISY');
      const figures = r.state === 'completed'
        ? `<td class="num">${r.partial ? 'n/a' : duration(r.engineTime?.passMs)}</td><td class="num">${duration(r.meanMs)}</td><td class="num">${duration(l.p50)}</td><td class="num">${duration(l.p99)}</td><td class="num">${rate(r.samplesPerSecond)}/s</td><td class="num">${r.partial ? 'n/a' : duration(r.endToEnd?.passMs)}</td><td>${esc([r.verdict?.status ?? '', ...flags].join(' '))}${r.parityOk === false ? ' <span class="bad">✗ parity</span>' : ''}</td>`
        : `<td colspan="7" class="reason">${esc(r.state)}: ${esc(r.reason)}</td>`;
      const keyCells = keys.map(([name, , value]) => `<td class="${name === 'sequenceLength' ? 'num' : ''}">${esc(String(value(r.key)))}</td>`).join('');
      return `<tr data-verdict="${esc(r.verdict?.status ?? '')}">${keyCells}<td>${esc(r.label)}</td><td class="num">${r.threads ?? r.requestedThreads ?? 'default'}</td><td class="num">${r.batchSize}</td>${figures}</tr>`;
    })
    .join('');
  const keyHeads = keys.map(([name, header]) => `<th class="${name === 'sequenceLength' ? 'num' : ''}">${header}</th>`).join('');
  return `<table class="table"><thead><tr>${keyHeads}<th>engine</th><th class="num">threads</th><th class="num">batch</th><th class="num" title="engine time of one pass over the rows">total / pass</th><th class="num" title="engine time per batch, mean of round means">mean</th><th class="num">p50</th><th class="num">p99</th><th class="num">samples/s</th><th class="num" title="end to end: callbacks, engine and read-back (a pipeline's whole call)">e2e / pass</th><th>verdict</th></tr></thead><tbody>${body}</tbody></table>`;
}

/**
 * The NOISY cells in a line above the Baseline table, with a link that shows
 * only them: the chart's header names the first and counts the rest ("and 9
 * more"), the table has them all.
 */
function noisyNote(rows) {
  const noisy = rows.filter((r) => r.verdict?.status === 'NOISY').length;
  return noisy === 0 ? '' : `<p class="note">${noisy} of ${rows.length} cells NOISY (their rounds disagree, or too few batches): <a href="#" data-noisy>show only those</a></p>`;
}

function select(id, label, options, value) {
  const opts = options.map((o) => `<option value="${esc(o.value)}"${String(o.value) === String(value) ? ' selected' : ''}>${esc(o.label)}</option>`).join('');
  return `<label class="control" for="${id}">${esc(label)} <select id="${id}">${opts}</select></label>`;
}

/** Draws the active tab from the fetched views. */
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
    chart.innerHTML = `<p class="muted">${entry.state === 'queued' ? 'Waiting in the queue.' : 'Nothing measured yet.'}</p>`;
    return;
  }
  if (views.kind === 'load') return renderLoad(panel, views.load, current);
  if (views.kind === 'generate' || views.kind === 'train') {
    await renderScenarioTab(state.tab, views, chart, below, (spec) => embed(chart, spec, current));
  } else if (state.tab === 'profile') {
    await renderProfileTab(views.profile, chart, below, (spec) => embed(chart, spec, current));
  } else if (state.tab === 'baseline') {
    below.innerHTML = noisyNote(views.baseline.rows) + baselineTable(views.baseline.rows, views.baseline.columns);
    below.querySelector('[data-noisy]')?.addEventListener('click', (event) => {
      event.preventDefault();
      const only = below.querySelector('table').classList.toggle('only-noisy');
      event.target.textContent = only ? 'show every cell' : 'show only those';
    });
    if (views.baseline.insufficient) below.insertAdjacentHTML('afterbegin', `<p class="note">${esc(views.baseline.insufficient)}</p>`);
    await embed(chart, views.baseline.spec, current);
  } else if (state.tab === 'core') {
    const v = views.coreScaling;
    controls.innerHTML = select('core-batch', 'Batch size', v.options.map((b) => ({ value: b, label: `batch ${b}` })), v.fixed);
    controls.querySelector('select').addEventListener('change', (e) => refreshViews(panel, entry, entries, { batchSize: Number(e.target.value) }));
    if (v.insufficient) below.innerHTML = `<p class="note">${esc(v.insufficient)}</p>`;
    await embed(chart, v.spec, current);
  } else {
    const v = views.batchScaling;
    controls.innerHTML = select('batch-threads', 'Core count', v.options.map((t) => ({ value: t === null ? 'default' : t, label: threadLabel(t) })), v.fixed === null ? 'default' : v.fixed);
    controls.querySelector('select').addEventListener('change', (e) => refreshViews(panel, entry, entries, { threads: threadValue(e.target.value) }));
    if (v.insufficient) below.innerHTML = `<p class="note">${esc(v.insufficient)}</p>`;
    await embed(chart, v.spec, current);
  }
}

/** A load run (`inferbench load`): the hockey stick, the peaks and the rate table, then the latency CDF, under every tab but Compare. */
async function renderLoad(panel, server, current) {
  const chart = panel.querySelector('.chart');
  const below = panel.querySelector('.below-chart');
  below.innerHTML =
    (server.hockeyStick.insufficient ? `<p class="note">${esc(server.hockeyStick.insufficient)}</p>` : '') +
    loadPeakTable(server.peaks) +
    loadRateTable(server.rows) +
    '<div class="chart cdf"></div>';
  await embed(chart, server.hockeyStick.spec, current);
  await embed(below.querySelector('.cdf'), server.cdf.spec, current);
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
  controls.innerHTML = select('compare-select', 'Compare with', others.map((e) => ({ value: e.id, label: `#${e.id} · ${entryTitle(e).engines} · ${shortDate(e.createdAt)} · ${common.get(e.id)} of ${comparable.data.cells} cells in common` })), state.compareWith);
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
  // Load runs also compare their peaks; a run of --rates alone has none: no peak table then, rather than a header over nothing.
  const peaks = (data.peaks ?? []).length > 0
    ? `<table class="table"><thead><tr><th>engine</th><th class="num">A peak</th><th class="num">B peak</th><th class="num">B/A</th></tr></thead><tbody>${data.peaks
        .map((p) => `<tr><td>${esc(p.label)}</td><td class="num">${rate(p.aPeakRps)}</td><td class="num">${rate(p.bPeakRps)}</td><td class="num">${p.ratio === null ? '–' : `${p.ratio.toFixed(2)}×`}</td></tr>`)
        .join('')}</tbody></table>`
    : '';
  below.innerHTML = `<p class="muted">A is #${data.a.id}, B is #${data.b.id} (this benchmark).</p>${peaks}<table class="table"><thead><tr><th>cell</th><th class="num">A ${figure}</th><th class="num">B ${figure}</th><th>B vs A</th></tr></thead><tbody>${rows}</tbody></table>`;
  await embed(chart, data.spec, current);
}

async function refreshViews(panel, entry, entries, change = {}) {
  Object.assign(state, change);
  const token = ++state.token;
  const query = new URLSearchParams();
  if (state.batchSize !== null) query.set('batchSize', String(state.batchSize));
  if (state.threads !== undefined) query.set('threads', state.threads === null ? 'default' : String(state.threads));
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
  if (state.id !== entry.id) Object.assign(state, { id: entry.id, batchSize: null, threads: undefined, compareWith: null, views: null });
  // Each kind of benchmark has its own tabs; a tab another kind had falls back to this kind's first.
  const tabs = TABS_BY_KIND[entryKind(entry)] ?? TABS_BY_KIND.run;
  if (!tabs.some(([id]) => id === state.tab)) state.tab = tabs[0][0];
  const { model, engines } = entryTitle(entry);
  const active = entry.state === 'running' || entry.state === 'queued';
  panel.innerHTML = `
    <div class="detail-head">
      <div>
        <h1>#${entry.id} · ${esc(model)} ${badge(entry.state)}</h1>
        <p class="meta">${esc(engines)} · ${esc(settingsLine(entryKind(entry), entry.config))}</p>
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
    <nav class="tabs" role="tablist">${tabs.map(([id, label]) => `<button class="tab" role="tab" data-view="${id}" aria-selected="false">${label}</button>`).join('')}</nav>
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
