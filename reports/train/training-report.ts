/**
 * Terminal report of `inferbench train`, in the layout of the transformers
 * benchmark's TRAIN tables: TRAIN – SPEED (time per step and samples/s),
 * TRAIN – MEMORY (peak RSS and the engine's tensor bytes) and TRAIN – LOSS
 * (first and last loss). Pure: same record, same text.
 */
import { unavailableLines } from '../unavailable-text.js';
import { trainingStateShown, type CompletedTrainingCell, type TrainingCell, type TrainingRunRecord } from '../../src/core/training-results.js';
import { banner, type Column, fitLines, type Style, type TableCell, wrap, wrapHanging } from '../text-table.js';
import { type CellColumn, cellTable, fitNote } from '../fitted-table.js';
import { fitReport, HEADER_WIDTH, layoutWidth, type ReportLayout } from '../report-layout.js';
import { formatBytes, formatDuration, formatRate, formatTimestamp } from '../../src/core/units.js';

const STATE_STYLE: Record<TrainingCell['state'] | 'interrupted', Style> = { completed: 'green', errored: 'red', skipped: 'yellow', interrupted: 'yellow' };

type ReportColumn = CellColumn<CompletedTrainingCell>;

/** Cells in sweep order: model, sequence length, batch size, then engines in the order they ran. */
export function orderedTrainingCells(run: TrainingRunRecord): TrainingCell[] {
  const engines: string[] = [];
  const models: string[] = [];
  for (const c of run.cells) {
    if (!engines.includes(c.engine)) engines.push(c.engine);
    if (!models.includes(c.model)) models.push(c.model);
  }
  return [...run.cells].sort(
    (a, b) =>
      models.indexOf(a.model) - models.indexOf(b.model) ||
      (a.sequenceLength ?? 0) - (b.sequenceLength ?? 0) ||
      a.batchSize - b.batchSize ||
      engines.indexOf(a.engine) - engines.indexOf(b.engine),
  );
}

function identity(cell: TrainingCell, models: number): TableCell[] {
  const session = cell.state === 'skipped' ? undefined : cell.session;
  const threads = session ? (session.threads === null ? 'default' : String(session.threads)) : cell.requestedThreads === null ? '–' : String(cell.requestedThreads);
  return [
    ...(models > 1 ? [cell.model] : []),
    { text: cell.engine, style: 'cyan' },
    session?.backend ?? '–',
    threads,
    String(cell.batchSize),
    cell.sequenceLength === null ? 'padded' : String(cell.sequenceLength),
    { text: trainingStateShown(cell), style: STATE_STYLE[trainingStateShown(cell)] },
  ];
}

function identityColumns(models: number): (Column & { readonly dropOrder?: number })[] {
  // Model and engine whole: a cut name could make two rows read as one.
  return [
    ...(models > 1 ? [{ header: 'model', align: 'left' as const, whole: true }] : []),
    { header: 'engine', align: 'left', whole: true },
    { header: 'backend', align: 'left', dropOrder: 6 },
    { header: 'threads', align: 'right' },
    { header: 'batch', align: 'right' },
    { header: 'seq', align: 'right' },
    { header: 'state', align: 'left' },
  ];
}

const orNa = (v: number | undefined | null, f: (n: number) => string): string => (v === undefined || v === null ? 'n/a' : f(v));

const SPEED_COLUMNS: readonly ReportColumn[] = [
  { header: 'step', align: 'right', value: (c) => ({ text: formatDuration(c.stepTime.mean), style: 'bold' }) },
  {
    header: '±95% CI',
    align: 'right',
    value: (c) => (c.betweenRounds.ci95 ? `±${formatDuration(c.betweenRounds.ci95.halfWidth)}` : '–'),
  },
  { header: 'samples/s', align: 'right', dropOrder: 5, value: (c) => formatRate(c.samplesPerSecond, '') },
  { header: 'forward', align: 'right', dropOrder: 3, value: (c) => orNa(c.forwardTime?.mean, formatDuration) },
  { header: 'backward', align: 'right', dropOrder: 2, value: (c) => orNa(c.backwardTime?.mean, formatDuration) },
  { header: 'update', align: 'right', dropOrder: 1, value: (c) => orNa(c.updateTime?.mean, formatDuration) },
  { header: 'steps', align: 'right', dropOrder: 4, value: (c) => `${c.rounds}×${c.steps}+${c.warmSteps}w` },
  { header: 'verdict', align: 'left', value: (c) => ({ text: c.verdict.status, style: c.verdict.status === 'VALID' ? 'green' : 'yellow' }) },
];

const MEMORY_COLUMNS: readonly ReportColumn[] = [
  { header: 'peak RSS', align: 'right', value: (c) => ({ text: formatBytes(c.peakRssBytes), style: 'bold' }) },
  { header: 'tfjs before', align: 'right', dropOrder: 2, value: (c) => orNa(c.engineBytes?.before, formatBytes) },
  { header: 'tfjs after', align: 'right', dropOrder: 3, value: (c) => orNa(c.engineBytes?.after, formatBytes) },
  { header: 'tfjs in step', align: 'right', dropOrder: 1, value: (c) => orNa(c.engineBytes?.peak, formatBytes) },
];

const LOSS_COLUMNS: readonly ReportColumn[] = [
  { header: 'optimizer', align: 'left', value: (c) => `${c.training.optimizer} lr ${c.training.learningRate}` },
  { header: 'first loss', align: 'right', dropOrder: 2, value: (c) => c.training.firstLoss.toFixed(6) },
  { header: 'last loss', align: 'right', value: (c) => ({ text: c.training.lastLoss.toFixed(6), style: 'bold' }) },
  { header: 'steps/round', align: 'right', dropOrder: 1, value: (c) => String(c.training.stepsPerRound) },
];

function table(title: string, run: TrainingRunRecord, columns: readonly ReportColumn[], color: boolean, minWidth: number, maxWidth: number) {
  const models = new Set(run.cells.map((c) => c.model)).size;
  return cellTable<TrainingCell, CompletedTrainingCell>({
    title,
    identity: identityColumns(models),
    identityCells: (cell) => identity(cell, models),
    columns,
    cells: orderedTrainingCells(run),
    done: (cell): cell is CompletedTrainingCell => cell.state === 'completed',
    reason: (cell) => (cell.state === 'completed' ? '' : { text: cell.reason, style: STATE_STYLE[cell.state] }),
    ruleAbove: (cell, previous) => previous.batchSize !== cell.batchSize || previous.sequenceLength !== cell.sequenceLength || previous.model !== cell.model,
    color,
    minWidth,
    maxWidth,
  });
}

/** The header, the three tables and the notes, as one string. */
export function renderTrainingReport(run: TrainingRunRecord, options: { color?: boolean } & ReportLayout = {}): string {
  const color = options.color === true;
  const maxWidth = layoutWidth(options, HEADER_WIDTH);
  const prose = Math.min(maxWidth, HEADER_WIDTH);
  const env = run.environment;
  const header = [
    banner('TRAINING', prose, color),
    ...run.models.flatMap((m) => fitLines([`model: ${m.name} (${m.source})`], prose)),
    ...unavailableLines(run, prose),
    ...wrap(`${env.cpuModel}, ${env.cores} cores · ${env.gpus.length > 0 ? env.gpus.join('; ') : 'no GPU'} · node ${env.node} · ${formatTimestamp(env.date)}`, prose),
    ...wrap('step = forward + mean cross-entropy on the labels + backward + optimizer update, timed as a whole (mean of the measured steps; ±95% CI across rounds); ' +
      'forward/backward/update timed apart where the engine can; warm steps (w) are logged, not counted; each round restarts from the initial weights', prose),
  ];
  const tables = (minWidth: number) => [
    table('TRAIN – SPEED', run, SPEED_COLUMNS, color, minWidth, maxWidth),
    table('TRAIN – MEMORY', run, MEMORY_COLUMNS, color, minWidth, maxWidth),
    table('TRAIN – LOSS', run, LOSS_COLUMNS, color, minWidth, maxWidth),
  ];
  // Rendered twice so the three tables share the widest one's width and line up.
  const blocks = tables(Math.max(...tables(0).map((t) => t.width)));
  const noisy = run.cells.filter((c): c is CompletedTrainingCell => c.state === 'completed' && c.verdict.status === 'NOISY');
  const notes = noisy.flatMap((c) => wrapHanging(`NOISY ${c.engine} batch ${c.batchSize}: ${c.verdict.reasons.join('; ')}`, maxWidth));
  const lines = [...header, '', ...blocks.flatMap((b) => [...b.lines, ...fitNote(b, maxWidth), '']), ...notes];
  return fitReport(lines, options, maxWidth).join('\n').trimEnd();
}
