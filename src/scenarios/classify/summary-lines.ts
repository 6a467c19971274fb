/**
 * The one-line summaries of the one-screen run report: output parity,
 * verdicts and the engines not run here, each ending with the command that
 * prints its whole table (`inferbench show ID --view …`, `inferbench
 * engines`). They count the same cells the tables list, so a line and its
 * table never disagree; the tables themselves are views (report-views.ts).
 */
import type { CompletedCell, RunRecord } from '../../core/results.js';
import { formatDifference } from '../../core/units.js';
import { orderedCells } from '../../../reports/run-summary.js';
import { cellNamer } from '../../../reports/cell-names.js';
import { cellFigures } from '../../../reports/cell-figures.js';
import { paint, wrap } from '../../../reports/text-table.js';
import { count } from '../../../reports/screen-lines.js';
import { PARITY_MARKER, parityFailures, parityOk } from '../../../reports/run-views.js';

/** `inferbench show 3 --view noise`: the history id when the caller knows it, else the run folder's id (show takes both). */
export function showCommand(run: RunRecord, view: string, historyId?: number | null): string {
  return `\`inferbench show ${historyId ?? run.id} --view ${view}\``;
}

/** Joins with commas and a final "and". */
function list(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function completed(run: RunRecord): CompletedCell[] {
  return orderedCells(run).filter((c): c is CompletedCell => c.state === 'completed');
}

/**
 * "Parity: all 12 checked cells agree with onnx-cpu within 1e-4", or, in
 * red, the cells that do not; nothing when parity was off and no cell has it.
 */
export function parityLine(run: RunRecord, width: number, color: boolean, historyId?: number | null): string[] {
  const cells = completed(run);
  const checked = cells.filter((c) => parityOk(c) !== null);
  const unavailable = cells.filter((c) => (c.parityUnavailable ?? null) !== null);
  if (checked.length === 0 && unavailable.length === 0) return [];
  const failed = parityFailures(run);
  const refs = [...new Set(checked.flatMap((c) => (c.parity ? [c.parity.reference] : [])))];
  const tolerances = [...new Set(checked.flatMap((c) => (c.parity ? [formatDifference(c.parity.tolerance)] : [])))];
  const reference = refs.join(', ') || 'the reference';
  const against = `${reference}${tolerances.length === 1 ? ` within ${tolerances[0]}` : ''}`;
  const more = unavailable.length > 0 ? `; unavailable on ${count(unavailable.length, 'cell')}` : '';
  const hint = `; ${showCommand(run, 'parity', historyId)}`;
  if (failed.length === 0) {
    const text = checked.length > 0 ? `Parity: all ${count(checked.length, 'checked cell')} agree with ${against}${more}${hint}` : `Parity: not checked${more}${hint}`;
    return wrap(text, width).map((l) => (checked.length > 0 && unavailable.length === 0 ? l.replace('Parity:', paint('Parity:', 'green', color)) : l));
  }
  const name = cellNamer(run);
  const text = `Parity: ${PARITY_MARKER} ${failed.length} of ${count(checked.length, 'checked cell')} differ from ${reference}${tolerances.length === 1 ? ` by more than ${tolerances[0]}` : ''}: ${failed.map(name).join('; ')}${more}${hint}`;
  return wrap(text, width).map((l) => paint(l, 'red', color));
}

/** The short cause of a NOISY reason, its figures left to the noise view. */
function cause(reason: string): string {
  if (reason.startsWith('rounds disagree')) return 'rounds disagree by more than ±5%';
  if (reason.startsWith('CV ')) return 'per-batch CV above --max-cv';
  return reason.replace(/[\d.]+%?/gu, '…').replace(/\s*\(.*$/u, '');
}

/**
 * "Verdicts: 10 of 14 cells NOISY (rounds disagree by more than ±5%), …;
 * `inferbench show 1 --view noise`": the counts of every verdict and state
 * with the causes of NOISY and how many cells saw a busy host.
 */
export function verdictLine(run: RunRecord, width: number, color: boolean, historyId?: number | null): string[] {
  const cells = orderedCells(run);
  if (cells.length === 0) return [];
  const done = completed(run);
  const noisy = done.filter((c) => c.verdict?.status === 'NOISY');
  const valid = done.filter((c) => c.verdict?.status === 'VALID');
  const partial = done.filter((c) => cellFigures(c).partial !== null);
  const causes = new Map<string, number>();
  for (const c of noisy) for (const r of new Set((c.verdict?.reasons ?? []).map(cause))) causes.set(r, (causes.get(r) ?? 0) + 1);
  const causeText = [...causes].sort((x, y) => y[1] - x[1]).map(([r, n]) => (n === noisy.length ? r : `${r} in ${n}`)).join('; ');
  const busy = done.filter((c) => (c.verdict?.warnings ?? []).some((w) => w.startsWith('host busy'))).length;
  const states = (['errored', 'skipped'] as const).flatMap((s) => {
    const n = cells.filter((c) => c.state === s).length;
    return n > 0 ? [`${n} ${s}`] : [];
  });
  const parts = [
    ...(noisy.length > 0 ? [`${noisy.length} of ${count(cells.length, 'cell')} NOISY${causeText ? ` (${causeText})` : ''}`] : []),
    ...(valid.length > 0 ? [`${valid.length}${noisy.length > 0 ? '' : ` of ${count(cells.length, 'cell')}`} VALID`] : []),
    ...(partial.length > 0 ? [`${partial.length} PARTIAL (no whole pass)`] : []),
    ...states,
  ];
  const busyText = busy > 0 ? `; other processes kept the host busy during ${count(busy, 'cell')}` : '';
  const text = `Verdicts: ${list(parts)}${busyText}; ${showCommand(run, noisy.length > 0 || busy > 0 ? 'noise' : 'latency', historyId)}`;
  return wrap(text, width).map((l) => (noisy.length > 0 || states.length > 0 ? l.replace('Verdicts:', paint('Verdicts:', 'yellow', color)) : l));
}
