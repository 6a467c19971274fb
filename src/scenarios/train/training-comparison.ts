/**
 * `inferbench compare` (and the dashboard's Compare) for two training runs:
 * the cells both runs have, each training step's mean time per round on
 * both sides, and the call that `run`'s comparison makes (callDifference in
 * run-comparison.ts: the test on round means, the minimum effect and the
 * ±5% equivalence bound). Train used to borrow run's comparison whole, which
 * reads a classification cell's per-round samples; a training cell keeps
 * its round means in `betweenRounds` and its round count as a number, so
 * `compare` of two train runs stopped with an internal error.
 */
import type { CompletedTrainingCell, TrainingCell, TrainingRunRecord } from './training-results.js';
import { formatDuration } from '../../core/units.js';
import { threadsUsed } from '../../../reports/cell-figures.js';
import { callDifference, callWords, compareMethodText, DEFAULT_MIN_EFFECT, type DifferenceCall } from '../../../reports/run-comparison.js';
import { fitNote, fittedRows } from '../../../reports/fitted-table.js';
import { HEADER_WIDTH, UNLIMITED_WIDTH } from '../../../reports/report-layout.js';
import { paint, type TableRow, wrap } from '../../../reports/text-table.js';

/** What a training cell is matched on: model, engine, batch, sequence length and the threads it used, as `run`'s cells are. */
export function trainingMatchKey(c: TrainingCell): string {
  return `${c.model}|${c.engine}|${c.batchSize}|${c.sequenceLength ?? 'text'}|${threadsUsed(c) ?? 'default'}`;
}

/** `tiny-bert · tfjs-cpu · batch 8 · 1 thread`; without the model when the runs hold one (the header names the runs). */
function labelOf(c: TrainingCell, withModel: boolean): string {
  const t = threadsUsed(c);
  return `${withModel ? `${c.model} · ` : ''}${c.engine} · batch ${c.batchSize}${c.sequenceLength === null ? '' : ` · seq ${c.sequenceLength}`} · ${t === null ? 'default threads' : `${t} thread${t === 1 ? '' : 's'}`}`;
}

/** One cell both runs have: each side's mean step time (null unless completed) and the call. */
export interface TrainingCellComparison {
  readonly label: string;
  readonly a: TrainingCell;
  readonly b: TrainingCell;
  readonly aMeanMs: number | null;
  readonly bMeanMs: number | null;
  /** Null when a side did not complete: nothing to test. */
  readonly difference: DifferenceCall | null;
}

const done = (c: TrainingCell): CompletedTrainingCell | null => (c.state === 'completed' ? c : null);

/** The cells of `a` that `b` also has, in `a`'s order, each with its call. */
export function compareTrainingRuns(a: TrainingRunRecord, b: TrainingRunRecord, minEffect = DEFAULT_MIN_EFFECT): TrainingCellComparison[] {
  const inB = new Map(b.cells.map((c) => [trainingMatchKey(c), c]));
  const withModel = new Set([...a.cells, ...b.cells].map((c) => c.model)).size > 1;
  return a.cells.flatMap((ca) => {
    const cb = inB.get(trainingMatchKey(ca));
    if (cb === undefined) return [];
    const [x, y] = [done(ca), done(cb)];
    return [
      {
        label: labelOf(ca, withModel),
        a: ca,
        b: cb,
        aMeanMs: x?.betweenRounds.mean ?? null,
        bMeanMs: y?.betweenRounds.mean ?? null,
        difference: x && y ? callDifference(x.betweenRounds.means, y.betweenRounds.means, minEffect) : null,
      },
    ];
  });
}

/** The call as a table and the dashboard print it. */
function callText(c: TrainingCellComparison): string {
  if (c.difference === null) return `not compared: ${c.a.state === 'completed' ? `B ${c.b.state}` : `A ${c.a.state}`}`;
  return callWords({ call: c.difference.call, ratio: c.difference.ratio, note: c.difference.note });
}

/** The comparison as the terminal prints it: the tally of calls first (the answer), then the table fitted to `width`. */
export function renderTrainingComparison(a: TrainingRunRecord, b: TrainingRunRecord, cells: readonly TrainingCellComparison[], o: { readonly color?: boolean; readonly width?: number; readonly minEffect?: number } = {}): string {
  const width = o.width ?? UNLIMITED_WIDTH;
  const color = o.color === true;
  const prose = Math.min(width, HEADER_WIDTH);
  const tally = new Map<string, number>();
  for (const c of cells) {
    const call = c.difference?.call ?? 'not compared';
    tally.set(call, (tally.get(call) ?? 0) + 1);
  }
  const summary = `A ${a.id} against B ${b.id}, ${cells.length} training cell${cells.length === 1 ? '' : 's'} in common: ${[...tally].map(([call, n]) => `${n} ${call}`).join(', ')}.`;
  const rows: TableRow[] = cells.map((c) => ({
    cells: [
      { text: c.label, style: 'cyan' },
      c.aMeanMs === null ? c.a.state : formatDuration(c.aMeanMs),
      c.bMeanMs === null ? c.b.state : formatDuration(c.bMeanMs),
      c.difference?.ratio == null ? '–' : `${c.difference.ratio.toFixed(2)}×`,
      callText(c),
    ],
  }));
  const table = fittedRows({
    title: `TRAINING COMPARISON – A ${a.id} vs B ${b.id}`,
    columns: [
      { header: 'cell', align: 'left', whole: true },
      { header: 'A step', align: 'right', dropOrder: 2 },
      { header: 'B step', align: 'right', dropOrder: 1 },
      { header: 'B/A', align: 'right' },
      { header: 'call', align: 'left' },
    ],
    rows,
    color,
    minWidth: 0,
    maxWidth: width,
  });
  return [
    ...wrap(summary, prose).map((l, i) => (i === 0 ? paint(l, 'bold', color) : l)),
    '',
    ...table.lines,
    ...fitNote(table, width),
    ...wrap(compareMethodText(o.minEffect ?? DEFAULT_MIN_EFFECT).replace("each round's mean engine time per batch", "each round's mean measured training step"), prose),
  ].join('\n');
}

/** The JSON `GET /api/compare` answers for two training runs, in the shape the dashboard's Compare tab reads for every kind. */
export function trainingComparisonJson(idA: number, idB: number, a: TrainingRunRecord, b: TrainingRunRecord): Record<string, unknown> {
  const cells = compareTrainingRuns(a, b);
  const paired = new Set(cells.flatMap((c) => [c.a, c.b]));
  return {
    a: { id: idA },
    b: { id: idB },
    spec: null,
    figure: 'step',
    cells: cells.map((c) => ({ label: c.label, aMeanMs: c.aMeanMs, bMeanMs: c.bMeanMs, ratio: c.difference?.ratio ?? null, call: c.difference?.call ?? 'not compared', callText: callText(c) })),
    onlyInA: a.cells.filter((c) => !paired.has(c)).length,
    onlyInB: b.cells.filter((c) => !paired.has(c)).length,
  };
}
