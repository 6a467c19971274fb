/**
 * `inferbench load` as the history, `show`, `compare` and the dashboard
 * see it (see ../scenario-registry.ts): latency under load per rate, the
 * peak rate, and two load runs compared by peak and by latency at equal
 * rates (src/scenarios/load/load-comparison.ts).
 */
import { UserError } from '../../core/errors.js';
import { goalText } from './latency-goal.js';
import { formatRate } from '../../core/units.js';
import type { LoadRunRecord } from './load-results.js';
import { LOAD_TABS, loadComparisonJson, loadViewsJson } from './load-dashboard-views.js';
import { compareServerRuns, loadComparisonKeys, renderServerComparison } from './load-comparison.js';
import { renderLoadReport, renderLoadView } from './load-report.js';
import { chooseReport } from '../../../reports/report-view-registry.js';
import type { LoadConfig } from './load-run.js';
import { LOAD_OPTIONS } from './load-options.js';
import type { LoadProgress } from './load-sweep.js';
import { registerScenario, type HeadlineParts, type TerminalComparison, type Scenario } from '../scenario-registry.js';

function settingLines(c: LoadConfig): string[] {
  return [
    `  rates:        ${c.rates.length > 0 ? `${c.rates.join(', ')} req/s` : 'none given'}${c.findPeak ? ', peak search' : ''}${c.slo ? `, goal ${goalText(c.slo)}` : ''}`,
    `  arrivals:     ${c.arrival}${c.arrival === 'gamma' ? ` (burstiness ${c.burstiness})` : ''}, seed ${c.seed}, ${c.warmupMs / 1000} s warm-up + ≥ ${c.durationMs / 1000} s and ${c.minQueries} requests per rate, ${c.rounds} round${c.rounds === 1 ? '' : 's'}`,
    `  batcher:      max batch ${c.maxBatch ?? 1}, max wait ${c.maxWaitMs ?? 0} ms`,
    `  threads:      ${c.threads === null ? 'engine default' : String(c.threads)}`,
    `  dataset:      ${c.dataset ?? 'embedded default'} (${c.limit} rows)`,
  ];
}

/** The dashboard header's line: `rates 20, 40 req/s + peak search · goal p99 ≤ 50 ms · batch ≤ 1, wait ≤ 0 ms · poisson arrivals, seed 1`. */
function settingsText(c: LoadConfig): string {
  const goal = c.slo ? `goal p${c.slo.percentile} ≤ ${c.slo.limitMs} ms` : 'no goal';
  return [`rates ${c.rates.length > 0 ? c.rates.join(', ') : '–'} req/s${c.findPeak ? ' + peak search' : ''}`, goal, `batch ≤ ${c.maxBatch ?? 1}, wait ≤ ${c.maxWaitMs ?? 0} ms`, `${c.arrival} arrivals, seed ${c.seed}`].join(' · ');
}

/** The history list's phrase for a load entry: its best cell's figure is its peak rate, else its highest rate measured (store-schema.ts cellColumns). */
function headline(h: HeadlineParts): string {
  const where = [h.batchSize > 1 ? `batches ≤ ${h.batchSize}` : null, h.threads].filter((p) => p !== null);
  return `${h.subject} ${formatRate(h.samplesPerSecond, ' req/s')}${where.length > 0 ? `, ${where.join(', ')}` : ''}`;
}

/** Two load runs: peak-rate ratios and latency ratios at equal rates; no chart. */
function terminal(a: LoadRunRecord, b: LoadRunRecord, o: { readonly color: boolean; readonly width: number | undefined }): TerminalComparison {
  const cmp = compareServerRuns(a, b);
  if (cmp.rates.length === 0 && !cmp.peaks.some((p) => p.a !== null && p.b !== null)) {
    throw new UserError(`load runs ${a.id} and ${b.id} have no engine with a peak or a rate in common`, 'compare runs of the same engines with a shared rate (--rates) or both with --find-peak');
  }
  return { text: renderServerComparison(a, b, cmp, o.color, o.width), chart: null };
}

/** The load scenario, for the callers that run it with its own types (its CLI command, the API). */
export const LOAD_SCENARIO: Scenario<LoadRunRecord, LoadConfig, LoadProgress> = {
  command: 'load',
  recordKind: 'load',
  options: LOAD_OPTIONS,
  modelsAsked: (c) => c.models.slice(0, 1),
  // The history's columns: p50 and p95 latency at the peak rate (else the highest passing or measured one), and that rate.
  cellHeadline: (cell) => {
    const peak = cell.peak?.acrossRounds?.mean ?? null;
    const probes = [...cell.probes].sort((a, b) => a.targetRps - b.targetRps);
    const at = probes.filter((p) => (peak === null ? p.passed !== false : p.targetRps <= peak)).pop() ?? probes[probes.length - 1];
    return at === undefined ? { meanMs: null, p95Ms: null, perSecond: null } : { meanMs: at.summary.latency.p50, p95Ms: at.summary.latency.p95, perSecond: peak ?? at.summary.achievedRps };
  },
  headline,
  settingLines,
  // The one screen, --details (or --view all) every table, --view NAME one (src/scenarios/load/load-report.ts LOAD_VIEWS).
  report: (record, o) => {
    const layout = { color: o.color, width: o.width, wide: o.wide === true };
    return chooseReport(o.text('view'), o.details === true, { screen: (details) => renderLoadReport(record, { ...layout, details, historyId: o.historyId ?? null }), one: (name) => renderLoadView(record, name, layout) });
  },
  views: (record) => loadViewsJson(record),
  tabs: LOAD_TABS,
  settingsText,
  execute: async (c, h) => (await import('./load-run.js')).executeLoad(c, h, h.names ?? 'field'),
  api: { route: 'load', load: async () => (await import('./load-request.js')).LOAD_API },
  childJobs: () => import('./load-child-job.js'),
  cli: () => import('./load-cli.js'),
  viewsWithoutCells: true,
  compare: {
    terminal,
    // Load runs match by engine peak and by engine at each rate, as compareServerRuns pairs them.
    json: (a, b) => loadComparisonJson(a.id, b.id, a.record, b.record),
    keys: loadComparisonKeys,
    hint: 'pick two load benchmarks',
  },
};

registerScenario(LOAD_SCENARIO);
