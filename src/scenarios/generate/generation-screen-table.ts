/**
 * The one table of a generation report's one screen. A default
 * `inferbench generate` measures 7 engines × 2 batch sizes × 2 prompt
 * lengths: 28 cells, which as rows alone would fill the screen. So with
 * more than one prompt length × new-token count, the table has a row per
 * engine and batch size and a TTFT and a TPOT column per prompt length
 * (and new-token count), the verdict the worst of the row's cells; with
 * one, a row per cell with both intervals and decode tokens/s. Only
 * completed cells: the others are one line under it. The full tables are
 * the report's views (ttft, tpot, throughput).
 */
import type { CompletedGenerationCell } from './generation-results.js';
import type { BetweenRounds } from '../../core/results.js';
import { formatDuration, formatDurationRange, formatRate } from '../../core/units.js';
import { type Column, type TableCell, type TableRow } from '../../../reports/text-table.js';
import { fittedRows } from '../../../reports/fitted-table.js';
import { generationThreadsUsed } from './generation-comparison.js';

type Fitted = ReturnType<typeof fittedRows>;

const threadsOf = (c: CompletedGenerationCell): string => {
  const t = generationThreadsUsed(c);
  return t === null ? 'default' : String(t);
};

/** The worst verdict of some cells: NOISY when any is, '–' when none has one (records from before rounds). */
function verdictOf(cells: readonly CompletedGenerationCell[]): TableCell {
  const verdicts = cells.flatMap((c) => (c.verdict ? [c.verdict.status] : []));
  if (verdicts.length === 0) return '–';
  const noisy = verdicts.filter((v) => v === 'NOISY').length;
  if (noisy === 0) return { text: 'VALID', style: 'green' };
  return { text: noisy === verdicts.length ? 'NOISY' : `${noisy} NOISY`, style: 'yellow' };
}

const interval = (r: BetweenRounds | null | undefined): string => (r?.ci95 ? formatDurationRange(r.ci95.low, r.ci95.high) : '–');

const IDENTITY: readonly (Column & { readonly dropOrder?: number })[] = [
  // Whole: a cut engine name could make two rows read as one.
  { header: 'engine', align: 'left', whole: true },
  { header: 'threads', align: 'right', dropOrder: 9 },
  { header: 'batch', align: 'right' },
];

/** A row per cell: TTFT and TPOT with their intervals, decode tokens/s, verdict. */
function perCell(cells: readonly CompletedGenerationCell[], color: boolean, maxWidth: number): Fitted {
  const rows: TableRow[] = cells.map((c, i) => ({
    cells: [
      { text: c.engine, style: 'cyan' },
      threadsOf(c),
      String(c.batchSize),
      { text: formatDuration(c.ttft.mean), style: 'bold' },
      interval(c.betweenRounds?.ttft),
      { text: c.tpot ? formatDuration(c.tpot.mean) : 'n/a', style: 'bold' },
      interval(c.betweenRounds?.tpot),
      c.decodeTokensPerSecond === null ? 'n/a' : formatRate(c.decodeTokensPerSecond, ' tok/s'),
      verdictOf([c]),
    ],
    ruleAbove: i > 0 && cells[i - 1]?.batchSize !== c.batchSize,
  }));
  const only = cells[0];
  return fittedRows({
    title: `TEXT GENERATION – prompt ${only?.promptLength ?? '?'}, ${only?.newTokens ?? '?'} new tokens`,
    columns: [
      ...IDENTITY,
      { header: 'TTFT', align: 'right' },
      { header: 'TTFT 95% CI', align: 'right', dropOrder: 2 },
      { header: 'TPOT', align: 'right' },
      { header: 'TPOT 95% CI', align: 'right', dropOrder: 1 },
      { header: 'decode', align: 'right', dropOrder: 3 },
      { header: 'verdict', align: 'left' },
    ],
    rows,
    color,
    minWidth: 0,
    maxWidth,
  });
}

/** A row per engine and batch size, a TTFT and a TPOT column per prompt length × new tokens. */
function pivoted(cells: readonly CompletedGenerationCell[], color: boolean, maxWidth: number): Fitted {
  const groups = [...new Set(cells.map((c) => `${c.promptLength}|${c.newTokens}`))];
  const newVaries = new Set(cells.map((c) => c.newTokens)).size > 1;
  const promptVaries = new Set(cells.map((c) => c.promptLength)).size > 1;
  const label = (g: string): string => {
    const [prompt = '', fresh = ''] = g.split('|');
    return [promptVaries ? `p${prompt}` : '', newVaries ? `n${fresh}` : ''].filter((p) => p !== '').join(' ');
  };
  const rowKeys: string[] = [];
  const byRow = new Map<string, CompletedGenerationCell[]>();
  for (const c of cells) {
    const key = `${c.batchSize}|${c.engine}|${threadsOf(c)}`;
    if (!byRow.has(key)) rowKeys.push(key);
    byRow.set(key, [...(byRow.get(key) ?? []), c]);
  }
  // No rule between batch sizes: the batch column groups the rows, and a default run's 20 rows keep to one screen.
  const rows: TableRow[] = rowKeys.map((key) => {
    const row = byRow.get(key) ?? [];
    const first = row[0] as CompletedGenerationCell;
    const at = (g: string) => row.find((c) => `${c.promptLength}|${c.newTokens}` === g);
    return {
      cells: [
        { text: first.engine, style: 'cyan' },
        threadsOf(first),
        String(first.batchSize),
        ...groups.flatMap((g): TableCell[] => {
          const c = at(g);
          return [{ text: c ? formatDuration(c.ttft.mean) : '–', style: 'bold' }, c?.tpot ? formatDuration(c.tpot.mean) : '–'];
        }),
        verdictOf(row),
      ],
    };
  });
  // The later configurations' columns give way first when the terminal is narrow; a note names them.
  const last = groups.length * 2;
  return fittedRows({
    title: 'TEXT GENERATION – mean TTFT and TPOT per engine, batch size and configuration',
    columns: [
      ...IDENTITY,
      ...groups.flatMap((g, j): (Column & { readonly dropOrder?: number })[] => [
        { header: `TTFT ${label(g)}`, align: 'right', ...(j > 0 ? { dropOrder: last - 2 * j + 1 } : {}) },
        { header: `TPOT ${label(g)}`, align: 'right', ...(j > 0 ? { dropOrder: last - 2 * j } : {}) },
      ]),
      { header: 'verdict', align: 'left' },
    ],
    rows,
    color,
    minWidth: 0,
    maxWidth,
  });
}

/** The one-screen table of the completed cells, `cells` in sweep order. */
export function generationScreenTable(cells: readonly CompletedGenerationCell[], color: boolean, maxWidth: number): Fitted {
  const groups = new Set(cells.map((c) => `${c.promptLength}|${c.newTokens}`)).size;
  return groups > 1 ? pivoted(cells, color, maxWidth) : perCell(cells, color, maxWidth);
}
