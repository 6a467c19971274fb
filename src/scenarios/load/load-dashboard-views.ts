/**
 * The dashboard's views of `inferbench load` runs: the rate table, the
 * peaks, and the same vega-lite specs as hockey-stick.png and
 * latency-cdf.png (src/scenarios/load/load-charts.ts); and two load runs compared
 * (src/scenarios/load/load-comparison.ts). The load scenario (src/scenarios/load/load-scenario.ts) serves them.
 */
import type { LoadRunRecord } from './load-results.js';
import { hockeyStickChartSpec, latencyCdfChartSpec } from './load-charts.js';
import { compareServerRuns } from './load-comparison.js';
import { batchSizesText, hockeyStickView, loadPeakRows, loadRateRows } from './load-views.js';

/** The JSON `GET /api/runs/<id>/views` answers for a load run, but its id and state; served even before a cell is recorded (`available: false`). */
export function loadViewsJson(record: LoadRunRecord): Record<string, unknown> {
  const hockey = hockeyStickView(record);
  return {
    available: record.cells.length > 0,
    kind: 'load',
    load: {
      rows: loadRateRows(record).map((r) => ({
        label: r.label,
        rateRps: r.targetRps,
        offeredRps: r.summary.offeredRps,
        achievedRps: r.summary.achievedRps,
        p50Ms: r.summary.latency.p50,
        p99Ms: r.summary.latency.p99,
        p999Ms: r.summary.latency.p999,
        queueWaitP99Ms: r.summary.queueWait.p99,
        batches: batchSizesText(r.summary),
        goodputRps: r.summary.slo?.goodputRps ?? null,
        verdict: r.summary.verdict.status,
        reasons: r.summary.verdict.reasons,
        passed: r.passed,
      })),
      peaks: loadPeakRows(record).map((p) => ({ label: p.label, peakRps: p.peakRps, lastPass: p.interval.lastPass, firstFail: p.interval.firstFail, ci95: p.ci95 })),
      hockeyStick: { spec: hockey.insufficient === null ? hockeyStickChartSpec(record) : null, insufficient: hockey.insufficient },
      cdf: { spec: record.cells.some((c) => c.state !== 'skipped' && (c.probes?.length ?? 0) > 0) ? latencyCdfChartSpec(record) : null },
    },
  };
}

/** The JSON `GET /api/compare` answers for two load runs: peak ratios and latency ratios at equal rates. */
export function loadComparisonJson(idA: number, idB: number, a: LoadRunRecord, b: LoadRunRecord): Record<string, unknown> {
  const cmp = compareServerRuns(a, b);
  return {
    a: { id: idA },
    b: { id: idB },
    kind: 'load',
    spec: null,
    // What the A and B columns hold: the page prints it, and names no scenario.
    figure: `p${cmp.percentile}`,
    percentile: cmp.percentile,
    peaks: cmp.peaks.map((p) => ({ label: p.label, aPeakRps: p.a?.peakRps ?? null, bPeakRps: p.b?.peakRps ?? null, ratio: p.ratio })),
    cells: cmp.rates.map((r) => ({
      label: `${r.label} @ ${r.targetRps} req/s`,
      aMeanMs: r.aMs,
      bMeanMs: r.bMs,
      ratio: r.ratio,
      callText: `p${cmp.percentile} B/A ${Number.isFinite(r.ratio) ? r.ratio.toFixed(2) : '–'}× (no call)`,
    })),
    onlyInA: 0,
    onlyInB: 0,
  };
}
