/**
 * `inferbench compare` for two generation runs: matching cells side by side
 * with their TTFT and TPOT means and the ratio B/A. It makes no faster or
 * slower call: a generation cell is one load measured in one stretch of
 * time, so its calls carry no evidence about the drift between two runs,
 * and a call from them would claim a precision the data does not have.
 */
import type { CompletedGenerationCell, GenerationCell, GenerationRunRecord } from '../src/core/generation-results.js';
import { formatDuration } from '../src/core/units.js';
import { renderTable, type TableRow } from './text-table.js';

/** One cell present in both runs. */
export interface GenerationCellPair {
  readonly key: string;
  readonly a: GenerationCell;
  readonly b: GenerationCell;
}

const keyOf = (c: GenerationCell): string =>
  `${c.model}|${c.engine}|${c.batchSize}|${c.promptLength}|${c.newTokens}|${c.requestedThreads === null ? 'default' : c.requestedThreads}`;

/** The cells of `a` that `b` also has, in `a`'s order. */
export function pairGenerationCells(a: GenerationRunRecord, b: GenerationRunRecord): GenerationCellPair[] {
  const inB = new Map(b.cells.map((c) => [keyOf(c), c]));
  return a.cells.flatMap((c) => {
    const other = inB.get(keyOf(c));
    return other ? [{ key: keyOf(c), a: c, b: other }] : [];
  });
}

function ratio(a: number | undefined, b: number | undefined): string {
  return a !== undefined && b !== undefined && a > 0 ? `${(b / a).toFixed(2)}×` : '–';
}

const done = (c: GenerationCell): CompletedGenerationCell | null => (c.state === 'completed' ? c : null);

/** The comparison table with its method line. */
export function renderGenerationComparison(a: GenerationRunRecord, b: GenerationRunRecord, pairs: readonly GenerationCellPair[], color = false): string {
  const rows: TableRow[] = pairs.map(({ a: ca, b: cb }) => {
    const x = done(ca);
    const y = done(cb);
    return {
      cells: [
        ca.engine,
        String(ca.batchSize),
        String(ca.promptLength),
        String(ca.newTokens),
        x ? formatDuration(x.ttft.mean) : ca.state,
        y ? formatDuration(y.ttft.mean) : cb.state,
        ratio(x?.ttft.mean, y?.ttft.mean),
        x?.tpot ? formatDuration(x.tpot.mean) : '–',
        y?.tpot ? formatDuration(y.tpot.mean) : '–',
        ratio(x?.tpot?.mean, y?.tpot?.mean),
      ],
    };
  });
  const headers: [string, 'left' | 'right'][] = [
    ['engine', 'left'],
    ['batch', 'right'],
    ['prompt', 'right'],
    ['new', 'right'],
    ['TTFT A', 'right'],
    ['TTFT B', 'right'],
    ['B/A', 'right'],
    ['TPOT A', 'right'],
    ['TPOT B', 'right'],
    ['B/A', 'right'],
  ];
  const table = renderTable({
    title: `GENERATION COMPARISON – A ${a.id} vs B ${b.id}`,
    columns: headers.map(([header, align]) => ({ header, align })),
    rows,
    color,
  });
  return [
    ...table.lines,
    'No faster/slower call: each generation cell is one load measured in one stretch of time, so it holds no',
    "evidence of the drift between two runs. Treat ratios within the machine's run-to-run spread as noise.",
    '',
  ].join('\n');
}
