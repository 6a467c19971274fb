/**
 * `inferbench train` as the history, `show`, `compare` and the dashboard
 * see it (see ../scenario-registry.ts): step time, samples/s and loss per
 * cell. `compare`, in the terminal and on the dashboard, matches its cells
 * as `run`'s are matched and calls each step time as `run` calls engine
 * time (src/scenarios/train/training-comparison.ts).
 */
import { UserError } from '../../core/errors.js';
import type { TrainingRunRecord } from './training-results.js';
import { renderTrainingReport, renderTrainingView } from './training-report.js';
import { chooseReport } from '../../../reports/report-view-registry.js';
import { TRAINING_TABS, trainingViews } from './training-dashboard-views.js';
import { listSetting, threadsSetting } from '../../../reports/dashboard-panels.js';
import type { TrainConfig } from './train-run.js';
import { TRAIN_OPTIONS } from './train-options.js';
import type { TrainingProgress } from './training-sweep.js';
import { registerScenario, type Scenario } from '../scenario-registry.js';
import { compareTrainingRuns, renderTrainingComparison, trainingComparisonJson, trainingMatchKey } from './training-comparison.js';

function settingLines(c: TrainConfig): string[] {
  return [
    `  batch sizes:  ${c.batchSizes.join(', ')}`,
    `  steps:        ${c.rounds} rounds × (${c.warmSteps} warm + ${c.steps}), ${c.optimizer} lr ${c.learningRate}`,
    `  threads:      ${c.threads === null ? 'engine default' : String(c.threads)}`,
    `  dataset:      ${c.dataset ?? 'embedded default'}`,
  ];
}

/** The dashboard header's line: `train · batch 4 · seq 128 · 2 steps × 2 rounds · cores default · adamw lr 0.0001`. */
function settingsText(c: TrainConfig): string {
  const seq = c.sequenceLengths ? [`seq ${listSetting(c.sequenceLengths)}`] : [];
  const rounds = `${c.steps} steps × ${c.rounds} round${c.rounds === 1 ? '' : 's'}`;
  return ['train', `batch ${listSetting(c.batchSizes)}`, ...seq, rounds, `cores ${threadsSetting(c.threads)}`, `${c.optimizer} lr ${c.learningRate}`, ...(c.dataset ? [`dataset ${c.dataset}`] : [])].join(' · ');
}

/** The train scenario, for the callers that run it with its own types (its CLI command, the API). */
export const TRAIN_SCENARIO: Scenario<TrainingRunRecord, TrainConfig, TrainingProgress> = {
  command: 'train',
  recordKind: 'train',
  options: TRAIN_OPTIONS,
  modelsAsked: (c) => c.models.slice(0, 1),
  // The history's columns: the measured step time (mean, p95) and samples/s.
  cellHeadline: (cell) => ({ meanMs: cell.stepTime.mean, p95Ms: cell.stepTime.p95, perSecond: cell.samplesPerSecond }),
  settingLines,
  // The one screen, --details (or --view all) every table, --view NAME one (src/scenarios/train/training-report.ts TRAIN_VIEWS).
  report: (record, o) => {
    const layout = { color: o.color, width: o.width, wide: o.wide === true };
    return chooseReport(o.text('view'), o.details === true, { screen: (details) => renderTrainingReport(record, { ...layout, details, historyId: o.historyId ?? null }), one: (name) => renderTrainingView(record, name, layout) });
  },
  views: (record) => trainingViews(record),
  tabs: TRAINING_TABS,
  settingsText,
  execute: async (c, h) => (await import('./train-run.js')).executeTrain(c, h, h.names ?? 'field'),
  api: { route: 'train', load: async () => (await import('./train-request.js')).TRAIN_API },
  childJobs: () => import('./train-child-job.js'),
  cli: () => import('./train-cli.js'),
  compare: {
    terminal: (a, b, o) => {
      const cells = compareTrainingRuns(a, b, o.minEffect());
      if (cells.length === 0) {
        throw new UserError(`training runs ${a.id} and ${b.id} have no cells in common`, 'compare runs of the same models, engines, batch sizes and sequence lengths, run at the same thread counts (cells match on the threads each engine reported using)');
      }
      return { text: renderTrainingComparison(a, b, cells, { color: o.color, ...(o.width === undefined ? {} : { width: o.width }), minEffect: o.minEffect() }), chart: null };
    },
    // The dashboard's Compare: each cell's step time on both sides and the same call.
    json: (a, b) => trainingComparisonJson(a.id, b.id, a.record, b.record),
    keys: (r) => new Set(r.cells.map(trainingMatchKey)),
    hint: 'pick two train benchmarks',
  },
};

registerScenario(TRAIN_SCENARIO);
