/**
 * Files of `inferbench train`: results.json (the whole record: every step's
 * times, memory and loss, `training.losses` on each cell), results.csv and
 * results.parquet (one row per cell, full precision), and step-time.png (step
 * time per engine and batch size). Written atomically like the other runs'.
 */
import type { TopLevelSpec } from 'vega-lite';
import { trainingStateShown, type CompletedTrainingCell, type TrainingCell, type TrainingRunRecord } from './training-results.js';
import { orderedTrainingCells } from './training-report.js';
import { formatDuration } from '../../core/units.js';
import { betweenRoundsOf } from '../../core/statistics.js';
import type { RunChart, WriteFs } from '../../../reports/write-run.js';
import { CELL_DATA_FILES, engineBarChartSpec, writeCellFiles, sessionColumns, type CellColumn, type ColumnKind } from '../../../reports/cell-files.js';

/** File names inside the run folder. */
export const TRAINING_FILES = {
  ...CELL_DATA_FILES,
  stepPng: 'step-time.png',
} as const;

type Kind = ColumnKind;
type TrainingColumn = CellColumn<TrainingCell, TrainingRunRecord>;

function measured(name: string, kind: Kind, f: (c: CompletedTrainingCell) => number | string | null | undefined): TrainingColumn {
  return { name, kind, value: (c) => (c.state === 'completed' ? f(c) : null) };
}

/** Columns of the CSV and Parquet files, in order. */
const COLUMNS: readonly TrainingColumn[] = [
  ...sessionColumns<TrainingCell, TrainingRunRecord>(),
  { name: 'batch_size', kind: 'int', value: (c) => c.batchSize },
  { name: 'sequence_length', kind: 'int', value: (c) => c.sequenceLength },
  // `interrupted`: Ctrl-C cut a completed cell short; its figures are kept, never VALID (as run's CSV).
  { name: 'state', kind: 'string', value: (c) => trainingStateShown(c) },
  { name: 'reason', kind: 'string', value: (c) => (c.state === 'completed' ? null : c.reason) },
  { name: 'out_of_memory', kind: 'int', value: (c) => (c.state === 'errored' ? (c.outOfMemory ? 1 : 0) : null) },
  measured('optimizer', 'string', (c) => c.training.optimizer),
  measured('learning_rate', 'double', (c) => c.training.learningRate),
  measured('rounds', 'int', (c) => c.rounds),
  measured('steps', 'int', (c) => c.steps),
  measured('warm_steps', 'int', (c) => c.warmSteps),
  measured('step_mean_ms', 'double', (c) => c.stepTime.mean),
  measured('step_p50_ms', 'double', (c) => c.stepTime.p50),
  measured('step_p90_ms', 'double', (c) => c.stepTime.p90),
  measured('step_ci95_half_ms', 'double', (c) => c.betweenRounds.ci95?.halfWidth ?? null),
  measured('forward_mean_ms', 'double', (c) => c.forwardTime?.mean ?? null),
  measured('backward_mean_ms', 'double', (c) => c.backwardTime?.mean ?? null),
  measured('update_mean_ms', 'double', (c) => c.updateTime?.mean ?? null),
  measured('samples_per_s', 'double', (c) => c.samplesPerSecond),
  measured('verdict', 'string', (c) => c.verdict.status),
  measured('peak_rss_bytes', 'double', (c) => c.peakRssBytes),
  measured('engine_bytes_before', 'double', (c) => c.engineBytes?.before ?? null),
  measured('engine_bytes_after', 'double', (c) => c.engineBytes?.after ?? null),
  measured('engine_bytes_peak', 'double', (c) => c.engineBytes?.peak ?? null),
  measured('first_loss', 'double', (c) => c.training.firstLoss),
  measured('last_loss', 'double', (c) => c.training.lastLoss),
  measured('losses', 'string', (c) => c.training.losses.join(';')),
  measured('open_ms', 'double', (c) => c.openMs),
];

/** Header names of the CSV and Parquet files. */
export const TRAINING_COLUMNS: readonly string[] = COLUMNS.map((c) => c.name);

/**
 * Bars of mean step time per engine, grouped by batch size (and sequence
 * length), with p90 as a tick. Only completed cells are drawn; the subtitle
 * names the others so a missing bar is never read as 0.
 */
export function trainingChartSpec(run: TrainingRunRecord): TopLevelSpec {
  const cells = orderedTrainingCells(run);
  const completed = cells.filter((c): c is CompletedTrainingCell => c.state === 'completed');
  const engines = [...new Set(cells.map((c) => c.engine))];
  const configOf = (c: TrainingCell) => `batch ${c.batchSize}${c.sequenceLength === null ? '' : ` · seq ${c.sequenceLength}`}${new Set(cells.map((x) => x.model)).size > 1 ? ` · ${c.model}` : ''}`;
  const values = completed.map((c) => {
    // The interval across round means, from the one statistics module (on the log scale), whatever an older record stored.
    const ci = c.betweenRounds.means.length > 1 ? betweenRoundsOf(c.betweenRounds.means).ci95 : null;
    return {
      engine: c.engine,
      config: configOf(c),
      mean: c.stepTime.mean,
      p90: c.stepTime.p90,
      label: formatDuration(c.stepTime.mean),
      noisy: c.verdict.status === 'NOISY',
      ...(ci === null ? {} : { low: ci.low, high: ci.high }),
    };
  });
  const missing = cells.filter((c) => c.state !== 'completed').map((c) => `${c.engine} (${configOf(c)}): ${c.state}`);
  const optimizer = completed[0]?.training;
  return engineBarChartSpec({
    title: `${run.models[0]?.name ?? ''} – training step time (forward + backward + ${optimizer?.optimizer ?? 'optimizer'} update), lower is better`,
    yTitle: 'step time (ms)',
    environment: run.environment,
    engines,
    bars: values,
    missing,
  });
}

/** The charts of a train run folder: step-time.png, or why it is not drawn (no cell completed), never an empty one. */
export function trainingCharts(run: TrainingRunRecord): RunChart[] {
  const completed = run.cells.some((c) => c.state === 'completed');
  return [completed ? { file: TRAINING_FILES.stepPng, spec: trainingChartSpec(run) } : { file: TRAINING_FILES.stepPng, skipped: 'no cell completed, so there is no step time to draw' }];
}

/**
 * Writes the run's files, data first and charts last, each atomically.
 * Returns the paths written; a chart that fails to render is reported in
 * `warnings` and never costs the data files.
 */
export async function writeTrainingFiles(
  run: TrainingRunRecord,
  dir: string,
  options: { png: boolean; fs?: WriteFs },
): Promise<{ paths: string[]; warnings: string[] }> {
  return writeCellFiles(
    dir,
    {
      run,
      columns: COLUMNS,
      cells: orderedTrainingCells(run),
      charts: options.png ? trainingCharts(run) : [],
    },
    options.fs,
  );
}
