/**
 * `inferbench run`, the classification scenario, as the history, `show`,
 * `compare` and the dashboard see it (see ../scenario-registry.ts): its
 * settings lines, its report and views with the fixed values the user
 * picked, and its per-cell comparison (the log-ratio t-test on round means
 * of reports/run-comparison.ts). Its stored config carries no `command` and
 * its records no `kind`, as they always have.
 */
import { UserError } from '../../core/errors.js';
import type { RunRecord } from '../../core/results.js';
import { formatTimestamp } from '../../core/units.js';
import { renderRunComparison } from './compare-report.js';
import { profileComparisonText } from './profile-comparison.js';
import { profileView } from './profile-dashboard-view.js';
import { latencyDistributionChartSpec } from '../../../reports/latency-chart.js';
import { acrossRounds, callWords, cellMatchKey, compareRuns, describeDifference } from '../../../reports/run-comparison.js';
import { batchSizes } from '../../../reports/run-summary.js';
import { baselineRows, batchScalingView, coreScalingView, keyColumns, latencyDistributionView, threadSettings } from '../../../reports/run-views.js';
import { renderReportView, renderTerminalReport, viewNames } from './terminal-report.js';
import { scalingSections, statisticsSection } from './terminal-views.js';
import { batchScalingChartSpec, coreScalingChartSpec } from '../../../reports/view-charts.js';
import { runComparisonChartSpec } from '../../../reports/run-comparison-chart.js';
import { DASHBOARD_LISTS } from '../../../reports/chart-width.js';
import type { RunConfig } from './run-config.js';
import type { ProgressEvent } from './benchmark-options.js';
import { CLASSIFY_OPTIONS } from './classify-options.js';
import { cellFigures } from '../../../reports/cell-figures.js';
import { registerScenario, ViewParamError, type ReportOptions, type TerminalComparison, type CompareOptions, type Scenario } from '../scenario-registry.js';
import { CLASSIFY_TABS, classifyPanels } from './classify-dashboard-panels.js';
import { listSetting, threadsSetting } from '../../../reports/dashboard-panels.js';

/** `show --view`: the whole report (all), core or batch scaling alone with their fixed values, and every named view of src/scenarios/classify/report-views.ts; baseline is the old name of latency. */
function viewChoices(): string[] {
  return ['all', 'summary', 'baseline', 'core', 'batch', ...viewNames()];
}

function settingLines(c: RunConfig): string[] {
  return [
    `  batch sizes:  ${c.batchSizes.join(', ')}`,
    `  threads:      ${c.threads.map((t) => (t === null ? 'engine default' : String(t))).join(', ')}`,
    `  dataset:      ${c.dataset ?? 'embedded default'}${c.limit !== null ? ` (${c.limit} rows per cell)` : ''}`,
  ];
}

/**
 * The run's tables as `show` prints them: the whole report, or one of the
 * dashboard's three views with its fixed value (the drop-downs there).
 */
function report(record: RunRecord, o: ReportOptions): string {
  const batchSize = o.positiveInt('batch-size');
  const threadsText = o.text('threads');
  const threads = threadsText === undefined ? undefined : threadsText === 'default' ? null : o.positiveInt('threads');
  const asked = o.text('view');
  if (asked !== undefined && !viewChoices().includes(asked)) throw new UserError(`--view must be one of ${viewChoices().join(', ')}, got "${asked}"`, 'e.g. --view latency, or --view core --batch-size 8');
  const fixedView = batchSize !== undefined && threads === undefined ? 'core' : threads !== undefined && batchSize === undefined ? 'batch' : batchSize !== undefined ? 'scaling' : undefined;
  const view = asked ?? fixedView ?? (o.details === true ? 'all' : 'summary');
  const sizes = batchSizes(record);
  if (batchSize !== undefined && !sizes.includes(batchSize)) throw new UserError(`--batch-size ${batchSize} was not measured in this run`, `use one of ${sizes.join(', ')}`);
  const settings = threadSettings(record);
  if (threads !== undefined && !settings.includes(threads)) {
    throw new UserError(`--threads ${threadsText} was not measured in this run`, `use one of ${settings.map((t) => (t === null ? 'default' : String(t))).join(', ')}`);
  }
  const { color } = o;
  const width = o.wide === true ? 100_000 : Math.max(40, o.width);
  const layout = { color, width: o.width, wide: o.wide === true };
  if (view === 'all' || view === 'summary') return renderTerminalReport(record, { ...layout, details: view === 'all', historyId: o.historyId ?? null });
  if (view === 'baseline') return statisticsSection(record, width, 0, color).join('\n');
  if (view !== 'core' && view !== 'batch' && view !== 'scaling') return renderReportView(record, view, layout);
  const fixed = { ...(batchSize !== undefined ? { batchSize } : {}), ...(threads !== undefined ? { threads } : {}) };
  return scalingSections(record, width, 0, color, { ...fixed, ...(view === 'core' || view === 'batch' ? { only: view } : {}) }).join('\n');
}

/** `?batchSize=8` for core scaling; absent means the view's default (the largest). */
function batchSizeParam(query: URLSearchParams): number | undefined {
  const raw = query.get('batchSize');
  if (raw === null) return undefined;
  if (!/^\d{1,6}$/.test(raw) || Number(raw) === 0) throw new ViewParamError(`batchSize must be a positive whole number, got "${raw}"`, 'pick one from the drop-down', 'batchSize');
  return Number(raw);
}

/** `?threads=4` or `?threads=default` for batch scaling; absent means the view's default. */
function threadsParam(query: URLSearchParams): number | null | undefined {
  const raw = query.get('threads');
  if (raw === null) return undefined;
  if (raw === 'default') return null;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) === 0) throw new ViewParamError(`threads must be a positive whole number or "default", got "${raw}"`, 'pick one from the drop-down', 'threads');
  return Number(raw);
}

/**
 * The three views of one benchmark with the fixed values the user picked:
 * baseline (every cell's figures, latency distribution chart), core
 * scaling at one batch size, batch-size scaling at one core count. The
 * charts are the vega-lite specs of reports/view-charts.ts, the same the
 * PNG reports use; the page draws them with vega-embed.
 */
function views(record: RunRecord, query: URLSearchParams): Record<string, unknown> {
  const batchSize = batchSizeParam(query);
  const threads = threadsParam(query);
  const sizes = batchSizes(record);
  const threadOptions = threadSettings(record);
  if (batchSize !== undefined && !sizes.includes(batchSize)) throw new ViewParamError(`batchSize ${batchSize} was not measured in benchmark ${record.id}`, `pick one of ${sizes.join(', ')}`, 'batchSize');
  if (threads !== undefined && !threadOptions.includes(threads)) throw new ViewParamError(`threads ${threads ?? 'default'} was not measured in benchmark ${record.id}`, 'pick a core count from the drop-down', 'threads');
  const core = coreScalingView(record, batchSize === undefined ? {} : { batchSize });
  const batch = batchScalingView(record, threads === undefined ? {} : { threads });
  const latency = latencyDistributionView(record);
  const rows = baselineRows(record);
  const parts = {
    baseline: { rows, columns: keyColumns(rows.map((r) => r.key)), spec: latency.insufficient === null ? latencyDistributionChartSpec(record, { lists: DASHBOARD_LISTS }) : null, insufficient: latency.insufficient },
    coreScaling: {
      options: sizes,
      fixed: core.fixed.batchSize,
      insufficient: core.insufficient,
      spec: core.insufficient === null ? coreScalingChartSpec(record, core.fixed.batchSize === null ? { lists: DASHBOARD_LISTS } : { batchSize: core.fixed.batchSize, lists: DASHBOARD_LISTS }) : null,
    },
    batchScaling: {
      options: threadOptions,
      fixed: batch.fixed.threads,
      insufficient: batch.insufficient,
      spec: batch.insufficient === null ? batchScalingChartSpec(record, { threads: batch.fixed.threads, lists: DASHBOARD_LISTS }) : null,
    },
    // WHERE THE TIME GOES of a `run --profile` benchmark; null without profiles.
    profile: profileView(record),
  };
  return { kind: 'run', ...parts, panels: classifyPanels(parts) };
}

/** The dashboard header's line: `batch 1, 8 · cores 1, 2 · 64 rows per cell · dataset sst2`. */
function settingsText(c: RunConfig): string {
  return [`batch ${listSetting(c.batchSizes)}`, `cores ${threadsSetting(c.threads)}`, c.limit === null ? 'all rows' : `${c.limit} rows per cell`, ...(c.dataset ? [`dataset ${c.dataset}`] : [])].join(' · ');
}

/** `inferbench compare` of two runs: the per-cell table with its calls, and the comparison chart. */
function terminal(a: RunRecord, b: RunRecord, o: CompareOptions): TerminalComparison {
  const comparison = compareRuns(a, b, { minEffect: o.minEffect() });
  if (comparison.cells.length === 0) {
    const why = describeDifference(a, b);
    const parts = why.parts.length > 1 ? `${why.parts.slice(0, -1).join(', ')} and ${why.parts.at(-1)}` : (why.parts[0] ?? 'combination of settings');
    throw new UserError(
      `runs ${a.id} and ${b.id} have no cells in common: they differ in ${why.differ || 'how their settings combine'}${why.same ? ` (the same ${why.same})` : ''}`,
      `measure one run with the other's ${parts} (or a run covering both), then compare`,
    );
  }
  const text = renderRunComparison(comparison, { files: [...o.files], color: o.color, details: o.details === true, ...(o.width ? { width: o.width } : {}) }) + profileComparisonText(a, b, o.width ?? 160, o.color);
  const drawable = comparison.cells.some((c) => c.a.state === 'completed' && c.b.state === 'completed');
  return { text, chart: async () => (drawable ? { spec: runComparisonChartSpec(a, b, comparison) } : { notDrawn: 'no cell completed in both runs' }) };
}

/** The run as the comparison chart should name it: history id and date rather than the folder id. */
function labelled(side: { readonly id: number; readonly record: RunRecord }): RunRecord {
  return { ...side.record, id: `#${side.id} (${formatTimestamp(side.record.startedAt)})` };
}

/**
 * Two benchmarks side by side (`?a=1&b=2`): the per-cell comparison with
 * calls from reports/run-comparison.ts (the log-ratio t-test on round means) and its chart.
 */
function json(sideA: { readonly id: number; readonly record: RunRecord }, sideB: { readonly id: number; readonly record: RunRecord }): Record<string, unknown> {
  const [recA, recB] = [labelled(sideA), labelled(sideB)];
  const comparison = compareRuns(recA, recB);
  const completedBoth = comparison.cells.some((c) => c.a.state === 'completed' && c.b.state === 'completed');
  return {
    a: { id: sideA.id },
    b: { id: sideB.id },
    spec: completedBoth ? runComparisonChartSpec(recA, recB, comparison) : null,
    cells: comparison.cells.map((c) => ({
      label: c.label,
      aMeanMs: c.a.state === 'completed' ? acrossRounds(c.a).mean : null,
      bMeanMs: c.b.state === 'completed' ? acrossRounds(c.b).mean : null,
      roundsA: c.roundsA,
      roundsB: c.roundsB,
      ratio: c.ratio,
      ratioCi: c.ratioCi,
      p: c.p,
      call: c.call,
      callText: callWords(c),
    })),
    onlyInA: comparison.onlyInA.length,
    onlyInB: comparison.onlyInB.length,
  };
}

/** The classification scenario (`run`), for the callers that run it with its own types (its CLI command, the API). */
export const CLASSIFY_SCENARIO: Scenario<RunRecord, RunConfig, ProgressEvent> = {
  command: 'run',
  recordKind: undefined,
  options: CLASSIFY_OPTIONS,
  modelsAsked: (c) => (c.model === null ? [] : [c.model]),
  // The history's columns: engine time per batch (mean of round means, pooled p95) and samples/s per pass (null without a whole pass).
  cellHeadline: (cell) => {
    const e = cellFigures(cell).engine;
    return { meanMs: e.meanMs, p95Ms: e.pooled.p95, perSecond: e.samplesPerSecond };
  },
  settingLines,
  report,
  views,
  tabs: CLASSIFY_TABS,
  settingsText,
  execute: async (c, h) => (await import('./classify-run.js')).executeRun(c, h),
  api: { route: 'runs', load: async () => (await import('./classify-request.js')).CLASSIFY_API },
  childJobs: () => import('./open-group.js'),
  queueJobs: () => import('./classify-queue-runner.js'),
  cli: () => import('./classify-cli.js'),
  compare: { terminal, json, keys: (r) => new Set(r.cells.map(cellMatchKey)), hint: 'pick a `run` benchmark' },
};

registerScenario(CLASSIFY_SCENARIO);
