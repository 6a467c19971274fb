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
import { figure, left, right, type Block, type DashboardTab, type Panel, type Table } from '../../../reports/dashboard-panels.js';

/** The dashboard's tabs of a load run: one, Latency under load. */
export const LOAD_TABS: readonly DashboardTab[] = [{ id: 'load', title: 'Latency under load' }];

type LoadViews = ReturnType<typeof loadView>;

/**
 * The peaks (when an engine searched for one), then engine × rate with the
 * rate asked for, offered and achieved side by side, as the terminal's
 * LATENCY UNDER LOAD table has them (an achieved rate above the asked one
 * is explained by the offered one beside it).
 */
function loadTables(load: LoadViews): Table[] {
  const peaks: Table = {
    columns: [left('engine'), right('peak'), right('last pass – first fail')],
    rows: load.peaks.map((p) => ({ cells: [p.label, figure(p.peakRps, '/s', 'none'), { parts: [figure(p.lastPass, 'number', '–'), ' – ', figure(p.firstFail, 'number', 'none failed')] }] })),
  };
  const rates: Table = {
    columns: [left('engine'), right('rate'), right('offered'), right('achieved'), right('p50'), right('p99'), right('queue p99'), left('batches'), right('goodput'), left('verdict')],
    rows: load.rows.map((r) => ({
      cells: [
        r.label, figure(r.rateRps, 'number'), figure(r.offeredRps, 'number'), figure(r.achievedRps, 'number'), figure(r.p50Ms, 'ms'), figure(r.p99Ms, 'ms'), figure(r.queueWaitP99Ms, 'ms'), r.batches, figure(r.goodputRps, 'number', '–'),
        { parts: [`${r.verdict}${r.passed === null ? '' : r.passed ? ' ✓' : ' ✗'}`], title: r.reasons.join('; ') },
      ],
    })),
  };
  return peaks.rows.length > 0 ? [peaks, rates] : [rates];
}

/** The rate table's rows, the peaks and the two charts' specs, as the views' `load` field has them. */
function loadView(record: LoadRunRecord) {
  const hockey = hockeyStickView(record);
  return {
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
  };
}

/** The JSON `GET /api/runs/<id>/views` answers for a load run, but its id and state; served even before a cell is recorded (`available: false`). */
export function loadViewsJson(record: LoadRunRecord): Record<string, unknown> {
  const load = loadView(record);
  // The hockey stick, then the peaks and the rate table, then the latency CDF.
  const insufficient = load.hockeyStick.insufficient;
  const below: Block[] = [...(insufficient === null ? [] : [{ note: insufficient }]), ...loadTables(load).map((table) => ({ table })), { chart: { spec: load.cdf.spec } }];
  const panel: Panel = { chart: { spec: load.hockeyStick.spec }, below };
  return { available: record.cells.length > 0, kind: 'load', load, panels: { load: panel } };
}

/** Each engine's peak in A and B, and B/A. */
function peakComparison(peaks: ReturnType<typeof compareServerRuns>['peaks']): Table {
  return {
    columns: [left('engine'), right('A peak'), right('B peak'), right('B/A')],
    rows: peaks.map((p) => ({ cells: [p.label, figure(p.a?.peakRps, 'number'), figure(p.b?.peakRps, 'number'), p.ratio === null ? '–' : `${p.ratio.toFixed(2)}×`] })),
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
    // The peaks as a table the page draws above the cells; none for runs of --rates alone.
    tables: cmp.peaks.length === 0 ? [] : [peakComparison(cmp.peaks)],
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
