/**
 * The dashboard's views of a `generate` benchmark: each cell's figures as
 * the terminal report shows them (TTFT and TPOT with their intervals across
 * rounds, decode tokens/s, peak RSS) and the same vega-lite charts as its
 * PNG files (ttft.png, tpot.png). Each tab's panel
 * (reports/dashboard-panels.ts) is the table of every cell under the tab's
 * chart.
 */
import type { GenerationCell, GenerationRunRecord } from './generation-results.js';
import { generationChartSpec } from './generation-files.js';
import { orderedGenerationCells } from './generation-report.js';
import { figure, type Cell, type DashboardTab, type Panel, type Piece, type Table } from '../../../reports/dashboard-panels.js';
import type { BetweenRounds } from '../../core/results.js';
import { cellTable, cores, figures, identity } from '../dashboard-cell-table.js';

/** The bounds of a 95% interval across rounds, for `ciCell`. */
function interval(rounds: BetweenRounds | null | undefined): { readonly low: number; readonly high: number } | null {
  return rounds?.ci95 ? { low: rounds.ci95.low, high: rounds.ci95.high } : null;
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

/** The dashboard's tabs of a generate run. */
export const GENERATION_TABS: readonly DashboardTab[] = [
  { id: 'ttft', title: 'TTFT' },
  { id: 'tpot', title: 'TPOT' },
];

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
