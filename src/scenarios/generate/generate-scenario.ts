/**
 * `inferbench generate` as the history, `show`, `compare` and the dashboard
 * see it (see ../scenario-registry.ts): TTFT and TPOT per cell, compared
 * cell by cell (src/scenarios/generate/generation-comparison.ts).
 */
import { UserError } from '../../core/errors.js';
import type { GenerationRunRecord } from './generation-results.js';
import { generationMatchKey, pairGenerationCells, renderGenerationComparison } from './generation-comparison.js';
import { generationComparisonJson } from './generation-comparison-chart.js';
import { renderGenerationReport, renderGenerationView } from './generation-report.js';
import { chooseReport } from '../../../reports/report-view-registry.js';
import { GENERATION_TABS, generationViews } from './generation-dashboard-views.js';
import { listSetting, threadsSetting } from '../../../reports/dashboard-panels.js';
import type { GenerateConfig } from './generate-run.js';
import { GENERATE_OPTIONS } from './generate-options.js';
import type { GenerationProgress } from './generation-sweep.js';
import { registerScenario, type TerminalComparison, type Scenario } from '../scenario-registry.js';

function settingLines(c: GenerateConfig): string[] {
  return [
    `  batch sizes:  ${(c.batchSizes ?? []).join(', ')}`,
    `  prompts:      ${(c.promptLengths ?? []).join(', ')} tokens, ${(c.newTokens ?? []).join(', ')} new tokens`,
    `  threads:      ${c.threads === null ? 'engine default' : String(c.threads)}`,
    `  dataset:      ${c.dataset ?? 'embedded default'}`,
  ];
}

/** The dashboard header's line: `generate · batch 1 · prompt 8 · new tokens 4 · cores default · 2 runs`. */
function settingsText(c: GenerateConfig): string {
  const lists = ([['batch', c.batchSizes], ['prompt', c.promptLengths], ['new tokens', c.newTokens]] as const).flatMap(([name, v]) => (v ? [`${name} ${listSetting(v)}`] : []));
  const runs = c.runs === undefined ? [] : [`${c.runs} run${c.runs === 1 ? '' : 's'}`];
  return ['generate', ...lists, `cores ${threadsSetting(c.threads)}`, ...runs, ...(c.dataset ? [`dataset ${c.dataset}`] : [])].join(' · ');
}

/** Two generation runs: matching cells with their TTFT/TPOT ratios, and their chart. */
function terminal(a: GenerationRunRecord, b: GenerationRunRecord, o: { readonly color: boolean; readonly width: number | undefined }): TerminalComparison {
  const pairs = pairGenerationCells(a, b);
  if (pairs.length === 0) {
    throw new UserError(`generation runs ${a.id} and ${b.id} have no cells in common`, 'compare runs of the same engines, batch sizes, prompt lengths and new-token counts, run at the same thread counts (cells match on the threads each engine reported using)');
  }
  return {
    text: renderGenerationComparison(a, b, pairs, o.color, o.width),
    chart: async () => {
      const chart = await import('./generation-comparison-chart.js');
      if (!chart.canDrawGenerationComparison(pairs)) return { notDrawn: 'no cell completed in both runs' };
      return { spec: chart.generationComparisonChartSpec(a, b, pairs) };
    },
  };
}

/** The generate scenario, for the callers that run it with its own types (its CLI command, the API). */
export const GENERATE_SCENARIO: Scenario<GenerationRunRecord, GenerateConfig, GenerationProgress> = {
  command: 'generate',
  recordKind: 'generate',
  options: GENERATE_OPTIONS,
  modelsAsked: (c) => (c.model === null ? [] : [c.model]),
  // The history's columns: time to first token (mean, p95) and decode tokens/s.
  cellHeadline: (cell) => ({ meanMs: cell.ttft.mean, p95Ms: cell.ttft.p95, perSecond: cell.decodeTokensPerSecond }),
  settingLines,
  // The one screen, --details (or --view all) every table, --view NAME one (src/scenarios/generate/generation-report.ts GENERATE_VIEWS).
  report: (record, o) => {
    const layout = { color: o.color, width: o.width, wide: o.wide === true };
    return chooseReport(o.text('view'), o.details === true, { screen: (details) => renderGenerationReport(record, { ...layout, details, historyId: o.historyId ?? null }), one: (name) => renderGenerationView(record, name, layout) });
  },
  views: (record) => generationViews(record),
  tabs: GENERATION_TABS,
  settingsText,
  execute: async (c, h) => (await import('./generate-run.js')).executeGenerate(c, h),
  api: { route: 'generate', load: async () => (await import('./generate-request.js')).GENERATE_API },
  childJobs: () => import('./generate-child-job.js'),
  cli: () => import('./generate-cli.js'),
  compare: {
    terminal,
    // The dashboard's Compare: each cell's TTFT and both ratios, matched as `inferbench compare` matches them.
    json: (a, b) => generationComparisonJson(a.id, b.id, a.record, b.record),
    keys: (r) => new Set(r.cells.map(generationMatchKey)),
    hint: 'pick two generate benchmarks',
  },
};

registerScenario(GENERATE_SCENARIO);
