/**
 * STS pairs checked before anything loads, never silently thinned: a pair
 * whose score is missing, not a number or not finite, or whose sentence is
 * empty or not a string, is refused naming its row and field, unless the
 * user passes `--skip-bad-rows`, which turns the refusal into a note with
 * the count and the first rows. The sweep streams `validPairs` of the same
 * rows, so the pairs every engine embeds are the ones the check passed
 * (the run refused any other, or noted them as skipped).
 */
import { UserError } from '../src/core/errors.js';
import type { Dataset, DataRow } from './dataset.js';
import type { ResolvedColumns } from './columns.js';

/** One refused pair: its row (from 0, of the rows the run streams), the field and what is wrong. */
export interface BadPair {
  readonly row: number;
  readonly field: string;
  readonly why: string;
}

/** What the check found over the rows a run streams. */
export interface PairCheck {
  readonly rows: number;
  readonly bad: number;
  /** The first few bad pairs, in row order. */
  readonly first: readonly BadPair[];
}

/** Bad pairs listed by name in a refusal or a note. */
const LISTED = 5;

type PairColumns = { readonly text: string; readonly second: string; readonly score: string };

function pairColumns(columns: ResolvedColumns): PairColumns | null {
  return columns.pair ? { text: columns.text, second: columns.pair.second, score: columns.pair.score } : null;
}

/** What is wrong with one pair, or null. A score may be a number or a numeric string (CSV files hold strings). */
export function pairProblem(row: DataRow, columns: PairColumns): { field: string; why: string } | null {
  for (const field of [columns.text, columns.second]) {
    const v = row[field];
    if (typeof v !== 'string') return { field, why: v === undefined || v === null ? 'missing' : `not a string (${JSON.stringify(v)?.slice(0, 40)})` };
    if (v.trim() === '') return { field, why: 'empty' };
  }
  const s = row[columns.score];
  if (s === undefined || s === null || s === '') return { field: columns.score, why: 'missing' };
  const n = typeof s === 'number' ? s : typeof s === 'string' ? Number(s) : NaN;
  if (typeof s !== 'number' && (typeof s !== 'string' || Number.isNaN(n))) return { field: columns.score, why: `not a number (${JSON.stringify(s)?.slice(0, 40)})` };
  if (!Number.isFinite(n)) return { field: columns.score, why: `not finite (${String(s)})` };
  return null;
}

/** Checks every row a run streams (`rows`: after calibration rows and the limit); null when the data set is not STS pairs. */
export async function checkPairs(rows: AsyncIterable<DataRow>, columns: ResolvedColumns): Promise<PairCheck | null> {
  const cols = pairColumns(columns);
  if (cols === null) return null;
  let index = 0;
  let bad = 0;
  const first: BadPair[] = [];
  for await (const row of rows) {
    const problem = pairProblem(row, cols);
    if (problem !== null) {
      bad++;
      if (first.length < LISTED) first.push({ row: index, ...problem });
    }
    index++;
  }
  return { rows: index, bad, first };
}

function listed(check: PairCheck): string {
  return `${check.first.map((b) => `row ${b.row} ${b.field} ${b.why}`).join('; ')}${check.bad > check.first.length ? `; …${check.bad - check.first.length} more` : ''}`;
}

/** The refusal of a check that found bad pairs (exit 2, before any engine opens). */
export function badPairsError(check: PairCheck): UserError {
  return new UserError(
    `${check.bad} of ${check.rows} STS pairs cannot be scored: ${listed(check)}`,
    'fix those rows (each needs two non-empty sentences and a finite number as score), or pass --skip-bad-rows to leave them out (the run says how many)',
  );
}

/** The note a run with --skip-bad-rows records and prints. */
export function skippedPairsNote(check: PairCheck): string {
  return `--skip-bad-rows: ${check.bad} of ${check.rows} STS pairs left out (rows counted from 0): ${listed(check)}`;
}

/** The rows of `dataset` that are good pairs; every row when it is not STS pairs. */
export function validPairs(dataset: Dataset, columns: ResolvedColumns): Dataset {
  const cols = pairColumns(columns);
  return cols === null ? dataset : dataset.filter((row) => pairProblem(row, cols) === null);
}
