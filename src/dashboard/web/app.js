// The dashboard page: the list of benchmarks (newest first) with their
// per-benchmark menu, the detail panel, and live updates from the server's
// event stream. Runs added here wait in the server's queue and run one at a
// time.
import { api, entryTitle, esc, openEvents, rate, shortDate } from './api.js';
import { initForm, openAddDialog, setupForm } from './form.js';
import { errorText, showToast } from './toasts.js';
import { progressHtml, renderDetail, updateLive } from './views.js';

const list = document.getElementById('run-list');
const detail = document.getElementById('detail');
const page = { entries: [], live: null, selected: null, info: null };

function selectedFromHash() {
  const match = /^#\/runs\/(\d+)$/.exec(location.hash);
  return match ? Number(match[1]) : null;
}

function headline(entry) {
  const h = entry.headline;
  if (!h) return '';
  const seq = h.sequenceLength === null || h.sequenceLength === undefined ? '' : ` · s${h.sequenceLength}`;
  return `<span title="best throughput: ${esc(entry.headlineText)}">${esc(h.engine)} ${rate(h.samplesPerSecond)}/s · b${h.batchSize}${seq}</span>`;
}

function renderList() {
  document.getElementById('run-count').textContent = page.entries.length ? String(page.entries.length) : '';
  document.getElementById('run-list-empty').hidden = page.entries.length > 0;
  list.innerHTML = page.entries
    .map((e) => {
      const { model, engines } = entryTitle(e);
      const live = page.live?.id === e.id ? page.live : null;
      const active = e.state === 'running' || e.state === 'queued';
      return `<li class="run-item${e.id === page.selected ? ' selected' : ''}" data-id="${e.id}">
        <a class="run-main" href="#/runs/${e.id}">
          <span class="run-title"><b>#${e.id}</b> ${esc(model)}</span>
          <span class="run-sub">${esc(engines)}</span>
          <span class="run-sub">${esc(shortDate(e.createdAt))}${e.rerunOf !== null ? ` · re-run of #${e.rerunOf}` : ''}</span>
          ${e.state === 'running' ? progressHtml(e, live) : ''}
          <span class="run-foot"><span class="badge state-${esc(e.state)}">${esc(e.state)}</span><span class="run-figure">${headline(e)}</span></span>
        </a>
        <button class="menu-button" type="button" aria-haspopup="menu" aria-label="Actions for benchmark ${e.id}">⋮</button>
        <div class="menu" role="menu" hidden>
          <button role="menuitem" data-action="rerun">Re-run benchmark</button>
          ${active ? '<button role="menuitem" data-action="cancel">Cancel</button>' : ''}
          <button role="menuitem" data-action="remove" class="danger-text">Remove</button>
        </div>
      </li>`;
    })
    .join('');
  list.querySelectorAll('.run-item').forEach((item) => {
    const entry = page.entries.find((e) => e.id === Number(item.dataset.id));
    const menu = item.querySelector('.menu');
    item.querySelector('.menu-button').addEventListener('click', (event) => {
      event.stopPropagation();
      const open = menu.hidden;
      closeMenus();
      menu.hidden = !open;
    });
    menu.querySelectorAll('[data-action]').forEach((b) =>
      b.addEventListener('click', () => {
        closeMenus();
        void act(b.dataset.action, entry);
      }),
    );
  });
}

function closeMenus() {
  document.querySelectorAll('.menu').forEach((m) => (m.hidden = true));
}

function toast(text, kind = 'info') {
  showToast(text, kind);
}

function confirmRemove(entry) {
  const dialog = document.getElementById('confirm-dialog');
  document.getElementById('confirm-text').textContent = `Remove benchmark #${entry.id} (${entryTitle(entry).model}) and delete its result files? This cannot be undone.`;
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    dialog.showModal();
  });
}

/** Menu and header actions. */
async function act(action, entry) {
  if (action === 'rerun') {
    const { ok, data } = await api('POST', `/api/runs/${entry.id}/rerun`);
    if (!ok) return toast(errorText(data), 'error');
    toast(`Benchmark #${data.id} queued: a re-run of #${entry.id}`);
    await refresh();
    location.hash = `#/runs/${data.id}`;
  } else if (action === 'cancel') {
    const { ok, data } = await api('POST', `/api/runs/${entry.id}/cancel`);
    if (!ok) return toast(errorText(data), 'error');
    await refresh();
  } else if (action === 'remove') {
    if (!(await confirmRemove(entry))) return;
    const { ok, data } = await api('DELETE', `/api/runs/${entry.id}`);
    if (!ok) return toast(errorText(data), 'error');
    toast(`Benchmark #${entry.id} removed`);
    if (page.selected === entry.id) history.replaceState(null, '', location.pathname);
    await refresh();
  }
}

async function showSelected() {
  page.selected = selectedFromHash() ?? page.entries[0]?.id ?? null;
  renderList();
  const entry = page.entries.find((e) => e.id === page.selected);
  if (!entry) {
    detail.innerHTML = '<div class="placeholder">Select a benchmark, or add one.</div>';
    return;
  }
  try {
    await renderDetail(detail, entry, page.entries, page.live?.id === entry.id ? page.live : null, act);
  } catch (err) {
    // Never leave the previous benchmark on screen under this one's name: say what failed instead.
    detail.innerHTML = `<p class="error-box">Benchmark #${entry.id} could not be shown: ${esc(err.message)}</p>`;
    throw err;
  }
}

async function refresh() {
  const { ok, data } = await api('GET', '/api/runs');
  if (!ok) {
    detail.innerHTML = `<p class="error-box">${esc(data.error)}${data.fix ? `<br>${esc(data.fix)}` : ''}</p>`;
    return;
  }
  page.entries = data.entries;
  page.live = data.current;
  await showSelected();
}

function listenForEvents() {
  const status = document.getElementById('connection');
  const events = openEvents();
  events.addEventListener('open', () => {
    status.textContent = 'live';
    status.className = 'connection on';
  });
  events.addEventListener('error', () => {
    status.textContent = 'reconnecting…';
    status.className = 'connection off';
  });
  events.addEventListener('progress', (message) => {
    const { progress } = JSON.parse(message.data);
    const before = page.live;
    page.live = progress;
    const entry = page.entries.find((e) => e.id === progress.id);
    const item = list.querySelector(`.run-item[data-id="${progress.id}"] .progress`);
    if (item) item.outerHTML = progressHtml(entry, progress);
    if (page.selected === progress.id) updateLive(detail, entry, progress);
    // A finished cell changes the charts; redraw when the count moves.
    if (page.selected === progress.id && before?.done !== progress.done) void refresh();
  });
  events.addEventListener('waiting', (message) => {
    const { id, reason } = JSON.parse(message.data);
    const box = detail.querySelector('.live');
    if (page.selected === id && box) box.innerHTML = `<p class="note">${esc(reason)}</p>`;
  });
  for (const type of ['queued', 'started', 'finished', 'removed']) events.addEventListener(type, () => void refresh());
}

async function main() {
  // Live updates first: whatever the engine probe or the first drawing meets, the page stays connected.
  listenForEvents();
  document.addEventListener('click', closeMenus);
  window.addEventListener('hashchange', () => void showSelected());
  initForm(async (id) => {
    toast(`Benchmark #${id} added to the queue`);
    await refresh();
    location.hash = `#/runs/${id}`;
  });
  const addButton = document.getElementById('add-button');
  addButton.addEventListener('click', () => openAddDialog(page.entries));
  addButton.disabled = true; // until the form knows the engines and defaults
  const info = await api('GET', '/api/info');
  if (info.ok) {
    page.info = info.data;
    setupForm(info.data);
    addButton.disabled = false;
  } else {
    toast(errorText(info.data), 'error');
  }
  await refresh();
}

void main();
