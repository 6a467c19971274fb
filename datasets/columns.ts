import { UserError } from '../src/core/errors.js';

/** Which columns hold the text to tokenize and, when there is one, the label. */
export interface ResolvedColumns {
  readonly text: string;
  /** null when the data set has no label column; benchmarks need none, accuracy checks do. */
  readonly label: string | null;
  /**
   * Set for an STS pairs file (`sentence1`, `sentence2`, `score`, STS-B's
   * layout): `text` is the first sentence's column, `second` the other's,
   * `score` the gold similarity. A feature-extraction model embeds both.
   */
  readonly pair?: { readonly second: string; readonly score: string };
}

/** The columns of STS-B's layout (mteb/stsbenchmark-sts, sentence-transformers/stsb). */
export const STS_COLUMNS = ['sentence1', 'sentence2', 'score'] as const;

/**
 * The STS pair columns of a data set: null when it has neither
 * `sentence1` nor `sentence2`; one of the three missing is a UserError
 * naming it, since running only the first sentences would measure no pairs.
 */
export function stsColumns(columns: readonly string[]): { text: string; second: string; score: string } | null {
  if (!columns.includes('sentence1') && !columns.includes('sentence2')) return null;
  const missing = STS_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length > 0) {
    throw new UserError(
      `the data set looks like STS pairs but lacks the column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `"${c}"`).join(', ')}; it has columns: ${columns.map((c) => JSON.stringify(c)).join(', ')}`,
      'an STS file needs sentence1, sentence2 and score (a gold similarity, e.g. 0-5) on every row, as mteb/stsbenchmark-sts has; or pass --text-column to run one column as plain texts',
    );
  }
  return { text: 'sentence1', second: 'sentence2', score: 'score' };
}

/**
 * Column names tried, in order, when the user names no text column. They
 * cover the common Hugging Face sentiment sets (imdb, sst2, yelp, tweet_eval)
 * so most files work without flags.
 */
export const TEXT_COLUMN_CANDIDATES = ['text', 'sentence', 'review', 'content', 'tweet'];

/** Column names tried, in order, when the user names no label column. */
export const LABEL_COLUMN_CANDIDATES = ['label', 'labels', 'sentiment', 'target'];

/**
 * Picks the text and label columns. Explicit names must exist exactly, since
 * a silent fallback would benchmark the wrong field; otherwise the first
 * candidate present wins (exact name first, then ignoring case, so `Text`
 * in a spreadsheet export works too). A data set with a single column uses
 * it as text. Errors list the columns found, because the user usually only
 * needs to copy one of them into the flag.
 */
export function resolveColumns(columns: readonly string[], wanted?: { text?: string; label?: string }): ResolvedColumns {
  const found = columns.length > 0 ? columns.map((c) => JSON.stringify(c)).join(', ') : '(none)';
  // STS pairs, unless the user names a text column to run as plain texts.
  const sts = wanted?.text === undefined ? stsColumns(columns) : null;
  if (sts !== null) return { text: sts.text, label: null, pair: { second: sts.second, score: sts.score } };

  let text: string | undefined;
  if (wanted?.text !== undefined) {
    if (!columns.includes(wanted.text)) {
      throw new UserError(
        `Text column "${wanted.text}" not found; the data set has columns: ${found}`,
        'Pass one of the listed columns with --text-column.',
      );
    }
    text = wanted.text;
  } else {
    text = findCandidate(columns, TEXT_COLUMN_CANDIDATES) ?? (columns.length === 1 ? columns[0] : undefined);
    if (text === undefined) {
      throw new UserError(
        `Cannot tell which column holds the text (looked for ${TEXT_COLUMN_CANDIDATES.join(', ')}); the data set has columns: ${found}`,
        'Name the text column with --text-column (and the label column with --label-column).',
      );
    }
  }

  let label: string | null;
  if (wanted?.label !== undefined) {
    if (!columns.includes(wanted.label)) {
      throw new UserError(
        `Label column "${wanted.label}" not found; the data set has columns: ${found}`,
        'Pass one of the listed columns with --label-column, or leave it out to run without labels.',
      );
    }
    label = wanted.label;
  } else {
    label = findCandidate(columns, LABEL_COLUMN_CANDIDATES) ?? null;
  }

  if (label === text) {
    throw new UserError(
      `The text and label columns are both "${text}"`,
      'Name different columns with --text-column and --label-column.',
    );
  }
  return { text, label };
}

function findCandidate(columns: readonly string[], candidates: readonly string[]): string | undefined {
  for (const candidate of candidates) {
    if (columns.includes(candidate)) return candidate;
  }
  for (const candidate of candidates) {
    const match = columns.find((c) => c.toLowerCase() === candidate);
    if (match !== undefined) return match;
  }
  return undefined;
}

/** What a non-text value is, in the words of an error message (`integers`, `nulls`, `objects`). */
function kindOf(value: unknown): string {
  if (value === null) return 'nulls';
  if (value === undefined) return 'missing values';
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value))) return 'integers';
  if (typeof value === 'number') return 'numbers';
  if (typeof value === 'boolean') return 'booleans';
  if (Array.isArray(value)) return 'lists';
  if (ArrayBuffer.isView(value)) return 'binary data';
  return 'objects';
}

function notText(column: string, value: unknown, row: number | undefined): UserError {
  const at = row === undefined ? '' : ` (row ${row + 1}: ${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))?.slice(0, 60) ?? String(value)})`;
  return new UserError(
    `column "${column}" holds ${kindOf(value)}${at}, not text`,
    'pass --text-column naming the column that holds the text (strings); numbers, nulls and objects would be benchmarked as "1", "" or "[object Object]"',
  );
}

/**
 * The text of one row. Anything but a string is refused rather than
 * turned into "1", "" or "[object Object]" by String(), which would
 * benchmark text nobody wrote. `row` (0-based) goes into the message.
 */
export function textOf(row: Readonly<Record<string, unknown>>, column: string, index?: number): string {
  const value = row[column];
  if (typeof value !== 'string') throw notText(column, value, index);
  return value;
}

/** Rows read by checkTextColumn: enough to catch a wrong column, few enough to cost nothing before a run. */
export const TEXT_CHECK_ROWS = 64;

/**
 * Checks the first rows' text column before anything is loaded, so a
 * column of numbers or objects fails at the door with its name instead of
 * mid-run (every row is checked again as it is tokenized).
 */
export async function checkTextColumn(rows: AsyncIterable<Readonly<Record<string, unknown>>>, column: string, sample = TEXT_CHECK_ROWS): Promise<void> {
  let index = 0;
  for await (const row of rows) {
    textOf(row, column, index);
    if (++index >= sample) break;
  }
}
