/**
 * `inferbench compare` for two generation runs: matching cells side by side
 * with their TTFT and TPOT means and the ratio B/A; the chart
 * (generation-comparison-chart.ts) adds each side's interval across rounds.
 * It makes no faster or slower call: records from before rounds hold one
 * open measured in one stretch of time, which carries no evidence about the
 * drift between two runs, so the ratio stands without a test.
 */
import type { CompletedGenerationCell, GenerationCell, GenerationRunRecord } from './generation-results.js';
import { formatDuration } from '../../core/units.js';
import { paint, type TableRow, wrap } from '../../../reports/text-table.js';
import { fitNote, fittedRows } from '../../../reports/fitted-table.js';
import { HEADER_WIDTH, UNLIMITED_WIDTH } from '../../../reports/report-layout.js';
import { threadsUsed } from '../../../reports/cell-figures.js';

/** One cell present in both runs. */
export interface GenerationCellPair {
  readonly key: string;
  readonly a: GenerationCell;
  readonly b: GenerationCell;
}

/** Threads the generation cell ran with: read back from its session, else the request. */
export function generationThreadsUsed(c: GenerationCell): number | null {
  return threadsUsed(c);
}

/**
 * The identity a generation cell is matched on: model, engine, batch,
 * prompt length, new tokens and the threads actually used (as `run`'s
 * compare), so a cell is never set against one that ran at another thread count.
 */
export const generationMatchKey = (c: GenerationCell): string => {
  const threads = generationThreadsUsed(c);
  return `${c.model}|${c.engine}|${c.batchSize}|${c.promptLength}|${c.newTokens}|${threads === null ? 'default' : threads}`;
};

/** The cells of `a` that `b` also has, in `a`'s order. */
export function pairGenerationCells(a: GenerationRunRecord, b: GenerationRunRecord): GenerationCellPair[] {
  const inB = new Map(b.cells.map((c) => [generationMatchKey(c), c]));
  return a.cells.flatMap((c) => {
    const other = inB.get(generationMatchKey(c));
    return other ? [{ key: generationMatchKey(c), a: c, b: other }] : [];
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

/** `1.23×`, B's figure over A's, or `–` when either is missing; the terminal's table and the dashboard's rows. */
export function ratio(a: number | undefined, b: number | undefined): string {
  return a !== undefined && b !== undefined && a > 0 ? `${(b / a).toFixed(2)}×` : '–';
}

const done = (c: GenerationCell): CompletedGenerationCell | null => (c.state === 'completed' ? c : null);

/** "0.95×–1.10×" over the pairs' ratios of one figure, or null when no pair has both sides. */
function ratioRange(values: readonly (number | null)[]): string | null {
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
  if (finite.length === 0) return null;
  const [low, high] = [Math.min(...finite), Math.max(...finite)];
  return low === high ? `${low.toFixed(2)}×` : `${low.toFixed(2)}×–${high.toFixed(2)}×`;
}

const ratioOf = (a: number | undefined, b: number | undefined): number | null => (a !== undefined && b !== undefined && a > 0 ? b / a : null);

/**
 * The comparison as the terminal prints it: one line with the range of
 * TTFT and TPOT ratios first (the answer), then the table fitted to `width`
 * (as run's report: columns give way, a note says which; unlimited by
 * default), the cells only one side has, and the method line.
 */
export function renderGenerationComparison(a: GenerationRunRecord, b: GenerationRunRecord, pairs: readonly GenerationCellPair[], color = false, width = UNLIMITED_WIDTH): string {
  const prose = Math.min(width, HEADER_WIDTH);
  const rows: TableRow[] = pairs.map(({ a: ca, b: cb }) => {
    const x = done(ca);
    const y = done(cb);
    return {
      cells: [
        { text: ca.engine, style: 'cyan' },
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
  const table = fittedRows({
    title: `GENERATION COMPARISON – A ${a.id} vs B ${b.id}`,
    columns: [
      { header: 'engine', align: 'left', whole: true },
      { header: 'threads', align: 'right' },
      { header: 'batch', align: 'right' },
      { header: 'prompt', align: 'right' },
      { header: 'new', align: 'right' },
      { header: 'TTFT A', align: 'right', dropOrder: 4 },
      { header: 'TTFT B', align: 'right', dropOrder: 2 },
      { header: 'B/A', align: 'right' },
      { header: 'TPOT A', align: 'right', dropOrder: 3 },
      { header: 'TPOT B', align: 'right', dropOrder: 1 },
      { header: 'B/A', align: 'right' },
    ],
    rows,
    color,
    minWidth: 0,
    maxWidth: width,
  });
  const ttft = ratioRange(pairs.map((p) => ratioOf(done(p.a)?.ttft.mean, done(p.b)?.ttft.mean)));
  const tpot = ratioRange(pairs.map((p) => ratioOf(done(p.a)?.tpot?.mean, done(p.b)?.tpot?.mean)));
  const summary = `A ${a.id} against B ${b.id}, ${pairs.length} cell${pairs.length === 1 ? '' : 's'} in common: TTFT B/A ${ttft ?? '–'}, TPOT B/A ${tpot ?? '–'} (below 1: B took less time).`;
  const onlyA = unmatched(a, pairs, 'a');
  const onlyB = unmatched(b, pairs, 'b');
  return [
    ...wrap(summary, prose).map((l, i) => (i === 0 ? paint(l, 'bold', color) : l)),
    '',
    ...table.lines,
    ...fitNote(table, width),
    ...wrap('Cells are matched on engine, batch, prompt length, new tokens and the threads each engine reported using.', prose),
    ...(onlyA.length > 0 ? wrap(`warning: only in A (no cell of B ran them at the same threads): ${onlyA.join(', ')}`, prose) : []),
    ...(onlyB.length > 0 ? wrap(`warning: only in B (no cell of A ran them at the same threads): ${onlyB.join(', ')}`, prose) : []),
    ...wrap("No faster/slower call is made for generation cells: set the ratios against each side's 95% interval across rounds (in the chart) and treat ratios within the machine's run-to-run spread as noise.", prose),
    '',
  ].join('\n');
}
