// The "Add benchmark" dialog: engines, an optional benchmark to compare
// against, several core counts and batch sizes, and the advanced options of
// `inferbench run`. The server validates everything; its 400 answers name the
// field, which is highlighted here.
import { api, entryTitle, esc } from './api.js';

/** The route this form starts a benchmark at (`POST /api/<route>`); each entry says the route its own scenario starts at. */
const ROUTE = 'runs';
import { formErrorText } from './form-errors.js';

const BATCH_CHOICES = [1, 2, 4, 8, 16, 32, 64, 128];

const dialog = document.getElementById('add-dialog');
const form = document.getElementById('add-form');
let info = null;

function chip(name, value, label, checked, disabled = false, title = '') {
  return `<label class="chip${disabled ? ' disabled' : ''}" title="${esc(title)}"><input type="checkbox" name="${name}" value="${esc(value)}"${checked ? ' checked' : ''}${disabled ? ' disabled' : ''}><span>${esc(label)}</span></label>`;
}

function coreChoices(cores) {
  const counts = [];
  for (let n = 1; n <= cores; n *= 2) counts.push(n);
  if (!counts.includes(cores)) counts.push(cores);
  return counts;
}

/** Fills the choices from /api/info; called once the info is known. */
export function setupForm(serverInfo) {
  info = serverInfo;
  const engines = document.getElementById('engine-options');
  engines.innerHTML = info.engines
    .map((e) => chip('engine', e.id, e.id, e.available && e.id === 'onnx-cpu', !e.available, e.available ? '' : e.reason))
    .join('');
  // Browsers each checked browser engine runs in (run --browsers); Chromium alone is the CLI without the flag.
  document.getElementById('browser-options').innerHTML = (info.browsers ?? [])
    .map((b) => chip('browser', b.name, b.name, b.name === 'chromium', !b.available, b.reason ?? ''))
    .join('');
  document.getElementById('thread-options').innerHTML = [
    chip('threads', 'default', 'engine default', true),
    ...coreChoices(info.cores).map((n) => chip('threads', n, String(n), false)),
  ].join('');
  document.getElementById('batch-options').innerHTML = BATCH_CHOICES.map((n) => chip('batchSizes', n, String(n), info.defaults.batchSizes.includes(n))).join('');
  const reference = document.getElementById('f-reference');
  reference.innerHTML = ['<option value="none">none (no parity check)</option>', ...info.engines.map((e) => `<option value="${esc(e.id)}">${esc(e.id)}</option>`)].join('');
  reference.value = 'onnx-cpu';
  form.elements.limit.value = info.defaults.limit;
  form.elements.warmupBatches.value = info.defaults.warmupBatches;
  form.elements.rounds.value = info.defaults.rounds;
  form.elements.minTime.value = info.defaults.stop.minTimeMs / 1000;
  form.elements.minBatches.value = info.defaults.stop.minBatches;
  form.elements.maxTime.value = info.defaults.stop.maxTimeMs / 1000;
  form.elements.calibrationRows.value = info.defaults.calibrationRows;
}

function checkedValues(name) {
  return [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value);
}

/** Comma-separated extras; anything that is not a number is sent as typed so the server names the field. */
function extras(id) {
  return document
    .getElementById(id)
    .value.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

function numberOrText(value) {
  return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
}

/** The run request, in the API's field names (the CLI options of `inferbench run`). */
function requestBody() {
  const el = form.elements;
  const body = {
    engines: checkedValues('engine'),
    batchSizes: [...checkedValues('batchSizes').map(Number), ...extras('batch-other')],
    limit: numberOrText(el.limit.value),
    warmupBatches: numberOrText(el.warmupBatches.value),
    rounds: numberOrText(el.rounds.value),
    stop: {
      minTimeMs: Number(el.minTime.value) * 1000,
      minBatches: numberOrText(el.minBatches.value),
      maxTimeMs: Number(el.maxTime.value) * 1000,
    },
    parity: { reference: el.reference.value === 'none' ? null : el.reference.value },
    isolate: el.isolate.checked,
    // --profile: one untimed op-level pass per cell after its timed rounds (docs/profile.md).
    ...(el.profile.checked ? { profile: true } : {}),
    // Used by q8-static cells only; the server checks the range either way, as the CLI does.
    calibrationRows: numberOrText(el.calibrationRows.value),
    calibrationMethod: el.calibrationMethod.value,
  };
  // "engine default" is null, as in the API and the CLI's resolver; alone it is the CLI without --threads, so it is not sent.
  const threads = [...checkedValues('threads').map((v) => (v === 'default' ? null : Number(v))), ...extras('threads-other')];
  if (!(threads.length === 1 && threads[0] === null)) body.threads = threads;
  const dtypes = el.dtypes.value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (dtypes.length > 0) body.dtypes = dtypes;
  // One --engine-options value a line; the server checks each against its engine's table, as the CLI does.
  const engineOptions = el.engineOptions.value.split('\n').map((s) => s.trim()).filter((s) => s !== '');
  if (engineOptions.length > 0) body.engineOptions = engineOptions;
  for (const name of ['model', 'dataset', 'textColumn', 'labelColumn']) if (el[name].value.trim() !== '') body[name] = el[name].value.trim();
  if (el.compareWith.value !== '') body.compareWith = Number(el.compareWith.value);
  const browsers = checkedValues('browser');
  if (body.engines.some((e) => e.startsWith('browser-')) && !(browsers.length === 1 && browsers[0] === 'chromium')) body.browsers = browsers;
  return body;
}

function clearErrors() {
  form.querySelectorAll('.field.invalid').forEach((f) => f.classList.remove('invalid'));
  form.querySelectorAll('.error').forEach((e) => (e.textContent = ''));
}

/** Shows a server error at its field, in the words of its label (opening the advanced section when the field is in it). */
function showError(data) {
  const field = data.field && form.querySelector(`.field[data-field="${CSS.escape(data.field)}"]`);
  const text = formErrorText(data, field ? field.querySelector('label')?.textContent ?? null : null);
  const target = field || (data.field?.startsWith('stop') ? form.querySelector('.field[data-field="stop.minTimeMs"]') : null);
  if (!target) {
    document.getElementById('form-error').textContent = text;
    return;
  }
  target.classList.add('invalid');
  target.querySelector('.error').textContent = text;
  const details = target.closest('details');
  if (details) details.open = true;
  target.scrollIntoView({ block: 'nearest' });
}

/** Opens the dialog with the compare-against choices from the current list. */
export function openAddDialog(entries) {
  clearErrors();
  const select = document.getElementById('compare-with');
  // A new benchmark compares only with benchmarks this form would start (not train or generate runs).
  const runs = entries.filter((e) => e.route === ROUTE);
  select.innerHTML = ['<option value="">None</option>', ...runs.map((e) => `<option value="${e.id}">#${e.id} · ${esc(entryTitle(e).model)} · ${esc(e.state)}</option>`)].join('');
  dialog.showModal();
}

/** Wires the dialog; `onAdded(id)` is told the new entry's id. */
export function initForm(onAdded) {
  dialog.querySelectorAll('[data-close]').forEach((b) => b.addEventListener('click', () => dialog.close()));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors();
    const submit = document.getElementById('add-submit');
    submit.disabled = true;
    const { ok, data } = await api('POST', `/api/${ROUTE}`, requestBody());
    submit.disabled = false;
    if (!ok) {
      showError(data);
      return;
    }
    dialog.close();
    onAdded(data.id);
  });
}
