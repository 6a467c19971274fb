/**
 * The dashboard's views of a `generate` and a `train` benchmark: each cell's
 * figures as the terminal report shows them (TTFT and TPOT; step time,
 * samples/s and loss) and the same vega-lite charts as their PNG files
 * (ttft.png, tpot.png, step-time.png). The classification views are in
 * src/runs/scenarios/classify-scenario.ts; these runs have other cells, so they get their own.
 * Each tab's panel (reports/dashboard-panels.ts) is the table of every cell under the tab's chart.
 */
import type { GenerationCell, GenerationRunRecord } from './generate/generation-results.js';
import type { BetweenRounds } from '../core/results.js';
import type { SampleStatistics } from '../core/statistics.js';
import type { TrainingCell, TrainingRunRecord } from './train/training-results.js';
import { generationChartSpec } from './generate/generation-files.js';
import { orderedGenerationCells } from './generate/generation-report.js';
import { trainingChartSpec } from './train/training-files.js';
import { orderedTrainingCells } from './train/training-report.js';
import { figure, left, right, type Cell, type DashboardTab, type Panel, type Piece, type Table } from '../../reports/dashboard-panels.js';

/** The figures of one statistic a table cell shows. */
interface Figures {
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
}

function figures(s: SampleStatistics | null): Figures | null {
  return s === null ? null : { mean: s.mean, p50: s.p50, p90: s.p90, p99: s.p99 };
}

function interval(rounds: BetweenRounds | null | undefined): { readonly low: number; readonly high: number } | null {
  return rounds?.ci95 ? { low: rounds.ci95.low, high: rounds.ci95.high } : null;
}

/** What every row says about its cell: which one it is, what ran, and how it ended. */
function identity(cell: GenerationCell | TrainingCell) {
  const session = cell.state === 'skipped' ? undefined : cell.session;
  return {
    model: cell.model,
    engine: cell.engine,
    backend: session?.backend ?? null,
    requestedThreads: cell.requestedThreads,
    threads: session?.threads ?? null,
    batchSize: cell.batchSize,
    state: cell.state,
    reason: cell.state === 'completed' ? null : cell.reason,
  };
}

/** A generate cell's row: TTFT and TPOT with their intervals across rounds, decode tokens/s, peak RSS. */
function generationRow(c: GenerationCell) {
  return {
    ...identity(c),
    promptLength: c.promptLength,
    newTokens: c.newTokens,
    ttft: c.state === 'completed' ? figures(c.ttft) : null,
    tpot: c.state === 'completed' ? figures(c.tpot) : null,
    // The 95% interval of the mean across rounds (as the terminal table's); null with one round or an older record.
    ttftCi95: c.state === 'completed' ? interval(c.betweenRounds?.ttft) : null,
    tpotCi95: c.state === 'completed' ? interval(c.betweenRounds?.tpot) : null,
    verdict: c.state === 'completed' ? (c.verdict?.status ?? null) : null,
    decodeTokensPerSecond: c.state === 'completed' ? c.decodeTokensPerSecond : null,
    peakRssBytes: c.state === 'completed' ? c.peakRssBytes : null,
  };
}

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

/** `kind: 'generate'`: a row per cell (TTFT, TPOT, decode tokens/s, peak RSS) and the TTFT and TPOT charts. */
export function generationViews(run: GenerationRunRecord) {
  const cells = orderedGenerationCells(run);
  const completed = cells.filter((c) => c.state === 'completed');
  const rows = cells.map(generationRow);
  const charts = {
    ttft: completed.length > 0 ? generationChartSpec(run, 'ttft') : null,
    tpot: completed.some((c) => c.tpot !== null) ? generationChartSpec(run, 'tpot') : null,
  };
  const table = generationTable(rows);
  const panel = (spec: (typeof charts)['ttft'], empty: string): Panel => ({ chart: { spec, empty }, below: [{ table }] });
  return {
    kind: 'generate' as const,
    rows,
    charts,
    panels: {
      ttft: panel(charts.ttft, 'No completed cell: nothing to draw.'),
      tpot: panel(charts.tpot, 'No completed cell generated more than one token: nothing to draw.'),
    },
  };
}

/** The dashboard's tabs of a generate run. */
export const GENERATION_TABS: readonly DashboardTab[] = [
  { id: 'ttft', title: 'TTFT' },
  { id: 'tpot', title: 'TPOT' },
];

/** The dashboard's tabs of a train run. */
export const TRAINING_TABS: readonly DashboardTab[] = [{ id: 'step', title: 'Step time' }];

type Identity = ReturnType<typeof identity>;

/** The cores a cell ran on: the threads read back, else the setting asked for. */
function cores(r: Identity): string {
  return String(r.threads ?? (r.requestedThreads === null ? 'default' : r.requestedThreads));
}

/**
 * A table whose first columns name the cell (the model when the run has
 * several, the engine, then `keys`), then its `figures`, or why it has none.
 */
function cellTable<T extends Identity>(rows: readonly T[], keys: readonly [string, (r: T) => string][], figures: readonly [string, (r: T) => Cell, boolean?][]): Table {
  const models = new Set(rows.map((r) => r.model)).size > 1;
  return {
    columns: [...(models ? [left('model')] : []), left('engine'), ...keys.map(([h]) => right(h)), ...figures.map(([h, , wrap]) => ({ ...right(h), ...(wrap === true ? { wrap } : {}) }))],
    rows: rows.map((r) => {
      const named: Cell[] = [...(models ? [r.model] : []), r.engine, ...keys.map(([, f]) => f(r))];
      return r.state === 'completed' ? { cells: [...named, ...figures.map(([, f]) => f(r))] } : { cells: named, reason: `${r.state}: ${r.reason ?? ''}` };
    }),
  };
}

/**
 * The 95% interval of the mean across rounds, `low – high`; '–' with one
 * round. It may break only after its dash (each figure is kept whole), so
 * the generate table's two interval columns take two short lines and the
 * table fits its panel at 1366×768.
 */
function ciCell(ci: { readonly low: number; readonly high: number } | null): Cell {
  const pieces: Piece[] = ci === null ? ['–'] : [{ ...figure(ci.low, 'ms'), whole: true }, '\u00a0– ', { ...figure(ci.high, 'ms'), whole: true }];
  return { parts: pieces };
}

type GenerationRow = ReturnType<typeof generationRow>;

function generationTable(rows: readonly GenerationRow[]): Table {
  return cellTable<GenerationRow>(
    rows,
    [['cores', cores], ['batch', (r) => String(r.batchSize)], ['prompt', (r) => String(r.promptLength)], ['new', (r) => String(r.newTokens)]],
    [
      ['TTFT mean', (r) => figure(r.ttft?.mean, 'ms')],
      ['TTFT 95% CI', (r) => ciCell(r.ttftCi95), true],
      ['TTFT p90', (r) => figure(r.ttft?.p90, 'ms')],
      ['TPOT mean', (r) => figure(r.tpot?.mean, 'ms')],
      ['TPOT 95% CI', (r) => ciCell(r.tpotCi95), true],
      ['TPOT p90', (r) => figure(r.tpot?.p90, 'ms')],
      ['decode tokens/s', (r) => figure(r.decodeTokensPerSecond, 'number')],
      ['peak RSS', (r) => figure(r.peakRssBytes, 'bytes')],
      ['verdict', (r) => r.verdict ?? '–'],
    ],
  );
}

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
