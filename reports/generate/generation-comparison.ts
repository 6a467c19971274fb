/**
 * `inferbench compare` for two generation runs: matching cells side by side
 * with their TTFT and TPOT means and the ratio B/A; the chart
 * (generation-comparison-chart.ts) adds each side's interval across rounds.
 * It makes no faster or slower call: records from before rounds hold one
 * load measured in one stretch of time, which carries no evidence about the
 * drift between two runs, so the ratio stands without a test.
 */
import type { CompletedGenerationCell, GenerationCell, GenerationRunRecord } from '../../src/core/generation-results.js';
import { formatDuration } from '../../src/core/units.js';
import { renderTable, type TableRow } from '../text-table.js';

/** One cell present in both runs. */
export interface GenerationCellPair {
  readonly key: string;
  readonly a: GenerationCell;
  readonly b: GenerationCell;
}

/** Threads the generation cell ran with: read back from its session, else the request. */
export function generationThreadsUsed(c: GenerationCell): number | null {
  return c.state !== 'skipped' && c.session !== undefined && c.session.threads !== null ? c.session.threads : c.requestedThreads;
}

/**
 * The identity a generation cell is matched on: model, engine, batch,
 * prompt length, new tokens and the threads actually used (as `run`'s
 * compare), so a cell is never set against one that ran at another thread count.
 */
const keyOf = (c: GenerationCell): string => {
  const threads = generationThreadsUsed(c);
  return `${c.model}|${c.engine}|${c.batchSize}|${c.promptLength}|${c.newTokens}|${threads === null ? 'default' : threads}`;
};

/** The cells of `a` that `b` also has, in `a`'s order. */
export function pairGenerationCells(a: GenerationRunRecord, b: GenerationRunRecord): GenerationCellPair[] {
  const inB = new Map(b.cells.map((c) => [keyOf(c), c]));
  return a.cells.flatMap((c) => {
    const other = inB.get(keyOf(c));
    return other ? [{ key: keyOf(c), a: c, b: other }] : [];
  });
}

/** `onnx-cpu batch 1 prompt 8 new 4 (2 threads)` for the cells of one side that found no match, or an empty list. */
function unmatched(run: GenerationRunRecord, pairs: readonly GenerationCellPair[], side: 'a' | 'b'): string[] {
  const paired = new Set(pairs.map((p) => p[side]));
  return run.cells
    .filter((c) => !paired.has(c))
    .map((c) => {
      const t = generationThreadsUsed(c);
      return `${c.engine} batch ${c.batchSize} prompt ${c.promptLength} new ${c.newTokens} (${t === null ? 'default threads' : `${t} thread${t === 1 ? '' : 's'}`})`;
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
        String(generationThreadsUsed(ca) ?? 'default'),
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
    ['threads', 'right'],
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
  const onlyA = unmatched(a, pairs, 'a');
  const onlyB = unmatched(b, pairs, 'b');
  return [
    ...table.lines,
    'Cells are matched on engine, batch, prompt length, new tokens and the threads each engine reported using.',
    ...(onlyA.length > 0 ? [`warning: only in A (no cell of B ran them at the same threads): ${onlyA.join(', ')}`] : []),
    ...(onlyB.length > 0 ? [`warning: only in B (no cell of A ran them at the same threads): ${onlyB.join(', ')}`] : []),
    "No faster/slower call is made for generation cells: set the ratios against each side's 95% interval across rounds",
    "(in the chart) and treat ratios within the machine's run-to-run spread as noise.",
    '',
  ].join('\n');
}
