/**
 * Terminal report of `inferbench train`. By default one screen (as run's,
 * issue 47): the answer (per batch size, the engine with the shortest step
 * with its lead and whether the rounds support it), one compact table, one
 * line each for verdicts, cells not completed and the engines not run here.
 * Every table is a view (TRAIN_VIEWS) that --details prints in order and
 * `inferbench show ID --view NAME` alone, in the layout of the transformers
 * benchmark's TRAIN tables: TRAIN – SPEED (time per step and samples/s),
 * TRAIN – MEMORY (peak RSS and the engine's tensor bytes) and TRAIN – LOSS
 * (first and last loss), with the NOISY reasons, the method and the
 * environment. Pure: same record, same text.
 */
import { unavailableLines } from '../../../reports/unavailable-text.js';
import { trainingStateShown, type CompletedTrainingCell, type TrainingCell, type TrainingRunRecord } from './training-results.js';
import { banner, type Column, fitLines, paint, type Style, type TableCell, wrap, wrapHanging } from '../../../reports/text-table.js';
import { ReportViewRegistry } from '../../../reports/report-view-registry.js';
import { notCompletedLine, notRunLine, reasonsInFull, screenHeader, showHint, verdictCountLine, viewsHint } from '../../../reports/screen-lines.js';
import { trainingAnswerLines } from './training-answer.js';
import { type CellColumn, cellTable, fitNote } from '../../../reports/fitted-table.js';
import { fitReport, HEADER_WIDTH, layoutWidth, type ScreenReportOptions } from '../../../reports/report-layout.js';
import { formatBytes, formatDuration, formatRate, formatTimestamp } from '../../core/units.js';

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

/** Options of this report: those of every one-screen report (report-layout.ts). */
export type TrainingReportOptions = ScreenReportOptions;

/** The models, the engines not run here and the machine, in full. */
function environmentLines(run: TrainingRunRecord, prose: number): string[] {
  const env = run.environment;
  return [
    ...run.models.flatMap((m) => fitLines([`model: ${m.name} (${m.source})`], prose)),
    ...unavailableLines(run, prose),
    ...wrap(`${env.cpuModel}, ${env.cores} cores · ${env.gpus.length > 0 ? env.gpus.join('; ') : 'no GPU'} · node ${env.node} · ${formatTimestamp(env.date)}`, prose),
  ];
}

const METHOD =
  'step = forward + mean cross-entropy on the labels + backward + optimizer update, timed as a whole (mean of the measured steps; ±95% CI across rounds); ' +
  'forward/backward/update timed apart where the engine can; warm steps (w) are logged, not counted; each round restarts from the initial weights';

/** Each NOISY cell with its reasons. */
function noiseLines(run: TrainingRunRecord, width: number): string[] {
  const noisy = run.cells.filter((c): c is CompletedTrainingCell => c.state === 'completed' && c.verdict.status === 'NOISY');
  return noisy.flatMap((c) => wrapHanging(`NOISY ${c.engine} batch ${c.batchSize}: ${c.verdict.reasons.join('; ')}`, width));
}

type Fitted = ReturnType<typeof table>;
const withNote = (t: Fitted, width: number): string[] => [...t.lines, ...fitNote(t, width)];

/**
 * The views of a training run: each table --details prints, in order, and
 * `inferbench show ID --view NAME` prints alone.
 */
export const TRAIN_VIEWS = new ReportViewRegistry<TrainingRunRecord>('train');
TRAIN_VIEWS.register({ name: 'environment', about: 'models, machine and the engines not run here', render: (c) => environmentLines(c.run, Math.min(c.width, HEADER_WIDTH)) });
TRAIN_VIEWS.register({ name: 'method', about: 'what a step is and how it is timed', render: (c) => wrap(METHOD, Math.min(c.width, HEADER_WIDTH)) });
TRAIN_VIEWS.register({ name: 'speed', about: 'time per step with its 95% CI, samples/s, forward, backward and update, steps, verdict', render: (c) => withNote(table('TRAIN – SPEED', c.run, SPEED_COLUMNS, c.color, c.sectionWidth, c.width), c.width) });
TRAIN_VIEWS.register({ name: 'memory', about: "peak RSS and tfjs's tensor bytes before, after and in a step", render: (c) => withNote(table('TRAIN – MEMORY', c.run, MEMORY_COLUMNS, c.color, c.sectionWidth, c.width), c.width) });
TRAIN_VIEWS.register({ name: 'loss', about: 'optimizer, first and last loss, steps per round', render: (c) => withNote(table('TRAIN – LOSS', c.run, LOSS_COLUMNS, c.color, c.sectionWidth, c.width), c.width) });
TRAIN_VIEWS.register({ name: 'noise', about: 'why cells are NOISY', render: (c) => noiseLines(c.run, c.width) });
TRAIN_VIEWS.register({ name: 'reasons', about: 'each cell that did not complete, with its whole reason', render: (c) => reasonsInFull(orderedTrainingCells(c.run), (cell) => `${cell.engine} batch ${cell.batchSize}${cell.sequenceLength === null ? '' : ` seq ${cell.sequenceLength}`}`, Math.min(c.width, HEADER_WIDTH)) });

/** The widths the views of one run are laid out at: the terminal's, and the widest full table's, so the tables line up. */
function trainingViewContext(run: TrainingRunRecord, options: TrainingReportOptions) {
  const width = layoutWidth(options, HEADER_WIDTH);
  const widths = [SPEED_COLUMNS, MEMORY_COLUMNS, LOSS_COLUMNS].map((columns) => table('', run, columns, false, 0, width).width);
  return { run, width, sectionWidth: Math.max(...widths), color: options.color === true };
}

/** One view alone (`inferbench show ID --view NAME`); an unknown name is a UserError naming the views. */
export function renderTrainingView(run: TrainingRunRecord, name: string, options: TrainingReportOptions = {}): string {
  const c = trainingViewContext(run, options);
  return fitReport(TRAIN_VIEWS.renderOne(name, c), options, c.width).join('\n');
}

/** The one-screen table: step time with its interval, samples/s, last loss and the verdict. */
const SCREEN_COLUMNS: readonly ReportColumn[] = [
  ...SPEED_COLUMNS.filter((col) => ['step', '±95% CI', 'samples/s'].includes(col.header)),
  { header: 'last loss', align: 'right', dropOrder: 1, value: (c) => c.training.lastLoss.toFixed(4) },
  ...SPEED_COLUMNS.filter((col) => col.header === 'verdict'),
];

/**
 * The report: one screen by default (the header, the answer per batch size,
 * one compact table of the completed cells, one line each for verdicts,
 * cells not completed and the engines not run here, and the views), or
 * with `details` every view in order, as the report was before it fit one
 * screen.
 */
export function renderTrainingReport(run: TrainingRunRecord, options: TrainingReportOptions = {}): string {
  const c = trainingViewContext(run, options);
  const { width: maxWidth, color } = c;
  const prose = Math.min(maxWidth, HEADER_WIDTH);
  if (options.details === true) {
    // The header's views run on under the banner; a blank line before each table and the notes, as before.
    const views = TRAIN_VIEWS.detailViews().flatMap((v) => {
      const lines = v.render(c);
      return lines.length === 0 ? [] : v.name === 'environment' || v.name === 'method' ? lines : ['', ...lines];
    });
    return fitReport([banner('TRAINING', prose, color), ...views], options, maxWidth).join('\n').trimEnd();
  }
  const id = options.historyId;
  const models = new Set(run.cells.map((cell) => cell.model)).size;
  const done = orderedTrainingCells(run).filter((cell): cell is CompletedTrainingCell => cell.state === 'completed');
  const screen = cellTable<TrainingCell, CompletedTrainingCell>({
    title: 'TRAINING – time per step',
    identity: identityColumns(models).filter((col) => col.header !== 'backend' && col.header !== 'state'),
    identityCells: (cell) => identity(cell, models).filter((_, i) => i !== (models > 1 ? 2 : 1) && i !== (models > 1 ? 6 : 5)),
    columns: SCREEN_COLUMNS,
    cells: done,
    done: (cell): cell is CompletedTrainingCell => cell.state === 'completed',
    reason: () => '',
    ruleAbove: (cell, previous) => previous.batchSize !== cell.batchSize || previous.sequenceLength !== cell.sequenceLength || previous.model !== cell.model,
    color,
    minWidth: 0,
    maxWidth,
  });
  const answer = trainingAnswerLines(run, prose, color);
  const counts = new Map<string, number>();
  for (const cell of done) counts.set(cell.verdict.status, (counts.get(cell.verdict.status) ?? 0) + 1);
  const sorted = new Map([...counts].sort((a, b) => (a[0] === 'VALID' ? -1 : b[0] === 'VALID' ? 1 : 0)));
  const lines = [
    ...screenHeader(run, 'train', prose, color),
    '',
    ...(answer.length > 0 ? [...answer, ''] : []),
    ...(done.length > 0 ? withNote(screen, maxWidth) : []),
    ...(done.length > 0 ? wrap('step: forward + loss + backward + update, mean of the measured steps; ±95% CI across rounds, each from the initial weights.', prose).map((l) => paint(l, 'dim', color)) : []),
    '',
    ...verdictCountLine(sorted, done.length, 'completed cell', prose, color, showHint(run, counts.has('NOISY') ? 'noise' : 'speed', id)),
    ...notCompletedLine(run.cells, prose, color, showHint(run, 'reasons', id)),
    ...notRunLine(run, prose),
    ...viewsHint(run, TRAIN_VIEWS.names(), prose, id),
  ];
  return fitReport(lines, options, maxWidth).join('\n').trimEnd();
}
