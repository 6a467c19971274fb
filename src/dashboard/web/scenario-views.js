// The detail panel's views of a `generate`, a `train` and a `load` benchmark:
// their own tabs (TTFT and TPOT; step time; latency under load), a table of every cell under the chart,
// and their settings line. The server sends the figures and the chart specs
// (src/dashboard/scenario-view-data.ts), the same as the terminal report and PNGs.
import { bytes, duration, esc, rate, threadsText } from './api.js';

/** Tabs of each kind of benchmark, as [id, label]. */
export const TABS_BY_KIND = {
  run: [
    ['baseline', 'Baseline'],
    ['core', 'Core scaling'],
    ['batch', 'Batch-size scaling'],
    ['profile', 'Where the time goes'],
    ['compare', 'Compare'],
  ],
  generate: [
    ['ttft', 'TTFT'],
    ['tpot', 'TPOT'],
    ['compare', 'Compare'],
  ],
  train: [
    ['step', 'Step time'],
    ['compare', 'Compare'],
  ],
  load: [
    ['load', 'Latency under load'],
    ['compare', 'Compare'],
  ],
};

const list = (values) => (values ?? []).join(', ');

/** `generate · batch 1 · prompt 8 · new tokens 4 · cores default · 2 runs`, or the train and run equivalents. */
export function settingsLine(kind, c) {
  if (kind === 'load') {
    const goal = c.slo ? `goal p${c.slo.percentile} ≤ ${c.slo.limitMs} ms` : 'no goal';
    return [`rates ${c.rates.length > 0 ? c.rates.join(', ') : '–'} req/s${c.findPeak ? ' + peak search' : ''}`, goal, `batch ≤ ${c.maxBatch ?? 1}, wait ≤ ${c.maxWaitMs ?? 0} ms`, `${c.arrival} arrivals, seed ${c.seed}`].join(' · ');
  }
  if (kind === 'generate') {
    const parts = ['generate', c.batchSizes && `batch ${list(c.batchSizes)}`, c.promptLengths && `prompt ${list(c.promptLengths)}`, c.newTokens && `new tokens ${list(c.newTokens)}`, `cores ${threadsText(c.threads)}`];
    if (c.runs !== undefined) parts.push(`${c.runs} run${c.runs === 1 ? '' : 's'}`);
    if (c.dataset) parts.push(`dataset ${c.dataset}`);
    return parts.filter(Boolean).join(' · ');
  }
  if (kind === 'train') {
    const parts = ['train', `batch ${list(c.batchSizes)}`];
    if (c.sequenceLengths) parts.push(`seq ${list(c.sequenceLengths)}`);
    parts.push(`${c.steps} steps × ${c.rounds} round${c.rounds === 1 ? '' : 's'}`, `cores ${threadsText(c.threads)}`, `${c.optimizer} lr ${c.learningRate}`);
    if (c.dataset) parts.push(`dataset ${c.dataset}`);
    return parts.join(' · ');
  }
  const parts = [`batch ${list(c.batchSizes)}`, `cores ${threadsText(c.threads)}`, c.limit === null ? 'all rows' : `${c.limit} rows per cell`];
  if (c.dataset) parts.push(`dataset ${c.dataset}`);
  return parts.join(' · ');
}

function coresText(row) {
  return row.threads ?? (row.requestedThreads === null ? 'default' : row.requestedThreads);
}

/** A table whose first columns name the cell, then its figures or why it has none. */
function table(rows, key, figures) {
  const models = new Set(rows.map((r) => r.model)).size > 1;
  const head = [...(models ? ['model'] : []), 'engine', ...key.map(([label]) => label)];
  const body = rows
    .map((r) => {
      const cells = [...(models ? [`<td>${esc(r.model)}</td>`] : []), `<td>${esc(r.engine)}</td>`, ...key.map(([, f]) => `<td class="num">${esc(f(r))}</td>`)];
      const rest = r.state === 'completed' ? figures.map(([, f, cls]) => `<td class="num${cls ? ` ${cls}` : ''}">${esc(f(r))}</td>`).join('') : `<td colspan="${figures.length}" class="reason">${esc(r.state)}: ${esc(r.reason)}</td>`;
      return `<tr>${cells.join('')}${rest}</tr>`;
    })
    .join('');
  const th = (label, num) => `<th${num ? ' class="num"' : ''}>${esc(label)}</th>`;
  return `<table class="table"><thead><tr>${head.map((h, i) => th(h, i > (models ? 1 : 0))).join('')}${figures.map(([label]) => th(label, true)).join('')}</tr></thead><tbody>${body}</tbody></table>`;
}

function generationTable(rows) {
  return table(
    rows,
    [['cores', coresText], ['batch', (r) => r.batchSize], ['prompt', (r) => r.promptLength], ['new', (r) => r.newTokens]],
    [
      ['TTFT mean', (r) => duration(r.ttft?.mean)],
      ['TTFT 95% CI', (r) => ciText(r.ttftCi95), 'range'],
      ['TTFT p90', (r) => duration(r.ttft?.p90)],
      ['TPOT mean', (r) => duration(r.tpot?.mean)],
      ['TPOT 95% CI', (r) => ciText(r.tpotCi95), 'range'],
      ['TPOT p90', (r) => duration(r.tpot?.p90)],
      ['decode tokens/s', (r) => rate(r.decodeTokensPerSecond)],
      ['peak RSS', (r) => bytes(r.peakRssBytes)],
      ['verdict', (r) => r.verdict ?? '–'],
    ],
  );
}

/**
 * The 95% interval of the mean across rounds, `low – high`; '–' with one
 * round. It may break only after its dash (its other spaces are
 * non-breaking), so the generate table's two interval columns take two
 * short lines and the table fits its panel at 1366×768.
 */
function ciText(ci) {
  const whole = (text) => text.replace(/ /g, '\u00a0');
  return ci ? `${whole(duration(ci.low))}\u00a0– ${whole(duration(ci.high))}` : '–';
}

function trainingTable(rows) {
  return table(
    rows,
    [['cores', coresText], ['batch', (r) => r.batchSize], ['seq', (r) => r.sequenceLength ?? 'padded']],
    [
      ['step mean', (r) => duration(r.step?.mean)],
      ['±95% CI', (r) => (r.stepCi95HalfWidth === null ? '–' : `±${duration(r.stepCi95HalfWidth)}`)],
      ['samples/s', (r) => rate(r.samplesPerSecond)],
      ['first loss', (r) => r.firstLoss?.toFixed(4) ?? 'n/a'],
      ['last loss', (r) => r.lastLoss?.toFixed(4) ?? 'n/a'],
      ['verdict', (r) => r.verdict ?? ''],
    ],
  );
}

/**
 * Draws a generate or train tab: the table below, and the tab's chart with
 * `embed` (null spec: nothing completed, said in words).
 */
export async function renderScenarioTab(tab, views, chart, below, embed) {
  below.innerHTML = views.kind === 'generate' ? generationTable(views.rows) : trainingTable(views.rows);
  const spec = views.charts[tab] ?? null;
  if (spec === null) {
    chart.innerHTML = `<p class="muted">No completed cell${tab === 'tpot' ? ' generated more than one token' : ''}: nothing to draw.</p>`;
    return;
  }
  await embed(spec);
}
