// A load run's two tables on the dashboard: the peaks, and the rate table
// with the rate asked for, the rate offered and the rate achieved side by
// side, as the terminal's LATENCY UNDER LOAD table has them (an achieved
// rate above the asked one is explained by the offered one beside it).
// Pure HTML from the views JSON, so node tests read the same columns.
import { duration, esc, rate } from './format.js';

/** The peak table, or '' when no engine searched for one. */
export function loadPeakTable(peaks) {
  const rows = peaks
    .map((p) => `<tr><td>${esc(p.label)}</td><td class="num">${p.peakRps === null ? 'none' : `${rate(p.peakRps)}/s`}</td><td class="num">${p.lastPass === null ? '–' : rate(p.lastPass)} – ${p.firstFail === null ? 'none failed' : rate(p.firstFail)}</td></tr>`)
    .join('');
  return rows ? `<table class="table"><thead><tr><th>engine</th><th class="num">peak</th><th class="num">last pass – first fail</th></tr></thead><tbody>${rows}</tbody></table>` : '';
}

/** Engine × rate: asked, offered and achieved req/s, latency, batches, goodput and verdict. */
export function loadRateTable(rows) {
  const body = rows
    .map((r) => `<tr><td>${esc(r.label)}</td><td class="num">${rate(r.rateRps)}</td><td class="num">${rate(r.offeredRps)}</td><td class="num">${rate(r.achievedRps)}</td><td class="num">${duration(r.p50Ms)}</td><td class="num">${duration(r.p99Ms)}</td><td class="num">${duration(r.queueWaitP99Ms)}</td><td>${esc(r.batches)}</td><td class="num">${r.goodputRps === null ? '–' : rate(r.goodputRps)}</td><td title="${esc(r.reasons.join('; '))}">${esc(r.verdict)}${r.passed === null ? '' : r.passed ? ' ✓' : ' ✗'}</td></tr>`)
    .join('');
  return `<table class="table"><thead><tr><th>engine</th><th class="num">rate</th><th class="num">offered</th><th class="num">achieved</th><th class="num">p50</th><th class="num">p99</th><th class="num">queue p99</th><th>batches</th><th class="num">goodput</th><th>verdict</th></tr></thead><tbody>${body}</tbody></table>`;
}
