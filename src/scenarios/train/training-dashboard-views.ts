/**
 * The dashboard's views of a `train` benchmark: each cell's figures as the
 * terminal report shows them (step time with its interval across rounds,
 * samples/s, loss) and the same vega-lite chart as its PNG file
 * (step-time.png), with the table of every cell under it
 * (reports/dashboard-panels.ts).
 */
import type { TrainingCell, TrainingRunRecord } from './training-results.js';
import { trainingChartSpec } from './training-files.js';
import { orderedTrainingCells } from './training-report.js';
import { figure, type DashboardTab, type Panel, type Table } from '../../../reports/dashboard-panels.js';
import { cellTable, cores, figures, identity } from '../dashboard-cell-table.js';

/** A train cell's row: step time with its interval across rounds, samples/s, loss. */
function trainingRow(c: TrainingCell) {
  return {
    ...identity(c),
    sequenceLength: c.sequenceLength,
    step: c.state === 'completed' ? figures(c.stepTime) : null,
    stepCi95HalfWidth: c.state === 'completed' ? (c.betweenRounds.ci95?.halfWidth ?? null) : null,
    samplesPerSecond: c.state === 'completed' ? c.samplesPerSecond : null,
    firstLoss: c.state === 'completed' ? c.training.firstLoss : null,
    lastLoss: c.state === 'completed' ? c.training.lastLoss : null,
    verdict: c.state === 'completed' ? c.verdict.status : null,
  };
}

/** The dashboard's tabs of a train run. */
export const TRAINING_TABS: readonly DashboardTab[] = [{ id: 'step', title: 'Step time' }];

type TrainingRow = ReturnType<typeof trainingRow>;

function trainingTable(rows: readonly TrainingRow[]): Table {
  return cellTable<TrainingRow>(
    rows,
    [['cores', cores], ['batch', (r) => String(r.batchSize)], ['seq', (r) => String(r.sequenceLength ?? 'padded')]],
    [
      ['step mean', (r) => figure(r.step?.mean, 'ms')],
      ['±95% CI', (r) => ({ ...figure(r.stepCi95HalfWidth, 'ms', '–'), prefix: '±' })],
      ['samples/s', (r) => figure(r.samplesPerSecond, 'number')],
      ['first loss', (r) => r.firstLoss?.toFixed(4) ?? 'n/a'],
      ['last loss', (r) => r.lastLoss?.toFixed(4) ?? 'n/a'],
      ['verdict', (r) => r.verdict ?? ''],
    ],
  );
}

/** `kind: 'train'`: a row per cell (step time with its interval across rounds, samples/s, loss) and the step-time chart. */
export function trainingViews(run: TrainingRunRecord) {
  const cells = orderedTrainingCells(run);
  const rows = cells.map(trainingRow);
  const charts = { step: cells.some((c) => c.state === 'completed') ? trainingChartSpec(run) : null };
  return {
    kind: 'train' as const,
    rows,
    charts,
    panels: { step: { chart: { spec: charts.step, empty: 'No completed cell: nothing to draw.' }, below: [{ table: trainingTable(rows) }] } satisfies Panel },
  };
}
