// Talks to the inferbench dashboard API. The access token (needed only when
// the dashboard listens off loopback) arrives once in the URL (?token=) and
// is kept for this tab, then removed from the address bar.
export { duration, esc, rate } from './format.js';

const params = new URLSearchParams(location.search);
if (params.has('token')) {
  sessionStorage.setItem('inferbench-token', params.get('token'));
  params.delete('token');
  const rest = params.toString();
  history.replaceState(null, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
}
const token = sessionStorage.getItem('inferbench-token');

/** Calls the API; resolves to { ok, status, data } and never throws on HTTP errors. */
export async function api(method, path, body) {
  const headers = { 'x-inferbench-client': 'web' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    return { ok: false, status: 0, data: { error: `the dashboard cannot be reached (${err.message})` } };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = { error: `HTTP ${response.status}` };
  }
  return { ok: response.ok, status: response.status, data };
}

/** The live event stream; EventSource cannot send headers, so the token goes in the query. */
export function openEvents() {
  return new EventSource(token ? `/api/events?token=${encodeURIComponent(token)}` : '/api/events');
}

/** `2026-11-22 14:21` in the browser's time zone. */
export function shortDate(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** What the list calls an entry: its model and engines. */
export function entryTitle(entry) {
  const model = entry.modelName ?? entry.models?.[0]?.name ?? entry.config.model ?? entry.config.models?.[0] ?? 'default model';
  const resolved = entry.recordedConfig?.enginesResolved;
  const engines = Array.isArray(resolved) ? resolved : (entry.config.engines ?? ['every available engine']);
  return { model, engines: engines.join(', ') };
}
