/**
 * `inferbench train` as the history, `show`, `compare` and the dashboard
 * see it (see ../scenario-registry.ts): step time, samples/s and loss per
 * cell. `compare` matches its cells as it matches `run`'s, as it always did;
 * the dashboard's Compare offers no train benchmark.
 */
import type { RunRecord } from '../../core/results.js';
import type { TrainingRunRecord } from '../../core/training-results.js';
import { renderTrainingReport, renderTrainingView } from '../../../reports/train/training-report.js';
import { chooseReport } from '../../../reports/report-view-registry.js';
import { trainingViews } from '../../../reports/scenario-dashboard-views.js';
import type { TrainConfig } from '../train-run.js';
import { TRAIN_OPTIONS } from '../../scenarios/train/train-options.js';
import { registerScenario, scenarioByCommand, recordedBy } from '../scenario-registry.js';
import './classify-scenario.js';

function settingLines(c: TrainConfig): string[] {
  return [
    `  batch sizes:  ${c.batchSizes.join(', ')}`,
    `  steps:        ${c.rounds} rounds × (${c.warmSteps} warm + ${c.steps}), ${c.optimizer} lr ${c.learningRate}`,
    `  threads:      ${c.threads === null ? 'engine default' : String(c.threads)}`,
    `  dataset:      ${c.dataset ?? 'embedded default'}`,
  ];
}

const asRun = (record: TrainingRunRecord) => record as unknown as RunRecord;

registerScenario<TrainingRunRecord, TrainConfig>({
  command: 'train',
  recordKind: 'train',
  options: TRAIN_OPTIONS,
  modelsAsked: (c) => c.models.slice(0, 1),
  settingLines,
  // The one screen, --details (or --view all) every table, --view NAME one (reports/train/training-report.ts TRAIN_VIEWS).
  report: (record, o) => {
    const layout = { color: o.color, width: o.width, wide: o.wide === true };
    return chooseReport(o.text('view'), o.details === true, { screen: (details) => renderTrainingReport(record, { ...layout, details, historyId: o.historyId ?? null }), one: (name) => renderTrainingView(record, name, layout) });
  },
  views: (record) => trainingViews(record),
  executeRecorded: recordedBy((m) => m.executeRecordedTrain),
  api: { route: 'train', load: async () => (await import('./train-request.js')).TRAIN_API },
  compare: {
    terminal: (a, b, o) => {
      const run = scenarioByCommand('run').compare?.terminal;
      if (run === undefined) throw new Error('the run scenario has no comparison');
      return run(asRun(a), asRun(b), o);
    },
    hint: 'pick a `run` benchmark',
  },
});
