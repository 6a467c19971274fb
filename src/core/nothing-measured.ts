/**
 * A run whose every cell was skipped or errored measured nothing: with
 * `--sequence-lengths 100000` on a 128-position model, or `--dtype q4`
 * where no q4 file exists, the sweep "completes" without one figure.
 * Reporting that as success (exit 0, `completed` in the history) hid the
 * mistake, so every caller asks here and fails the run with the reasons.
 */

/** The part of a cell this check reads; classification and generation cells both have it. */
interface CellOutcome {
  readonly state: string;
  readonly reason?: string;
}

/** Why a run measured nothing, grouped by reason; null when a cell completed or the run was interrupted. */
export interface NothingMeasured {
  /** One line: `nothing was measured: every cell was skipped (…)`. */
  readonly message: string;
  /** Each distinct reason with how many cells it stopped, as `skipped (4 cells): …`. */
  readonly reasons: readonly string[];
  /** True when every cell was skipped (a setting that cannot run here, a user mistake) rather than errored. */
  readonly allSkipped: boolean;
  /** The fix, when the command knows a better one than "change the settings named above" (train: the engines that can train). */
  readonly fix?: string;
}

/** Checks a finished run's record; see NothingMeasured. */
export function nothingMeasured(record: { readonly state: string; readonly cells: readonly CellOutcome[] }): NothingMeasured | null {
  if (record.state !== 'completed') return null;
  if (record.cells.some((c) => c.state === 'completed')) return null;
  const counts = new Map<string, number>();
  for (const cell of record.cells) {
    const key = `${cell.state}: ${cell.reason ?? 'no reason given'}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const reasons = [...counts].map(([key, n]) => {
    const split = key.indexOf(': ');
    return `${key.slice(0, split)} (${n} cell${n === 1 ? '' : 's'}): ${key.slice(split + 2)}`;
  });
  const allSkipped = record.cells.every((c) => c.state === 'skipped');
  const what = record.cells.length === 0 ? 'the sweep had no cells' : allSkipped ? 'every cell was skipped' : 'no cell completed';
  return { message: `nothing was measured: ${what}${reasons.length > 0 ? ` (${reasons.join('; ')})` : ''}`, reasons, allSkipped };
}
