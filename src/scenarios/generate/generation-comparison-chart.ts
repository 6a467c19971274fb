/**
 * The PNG of `inferbench compare` for two generate runs: for every cell both
 * runs completed, TTFT and TPOT of A beside B, each a mean with its 95%
 * interval across rounds, on a log axis as `run`'s comparison chart draws
 * engine time (times are positive, their spread multiplicative). It makes no
 * call, as the table does not.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { CompletedGenerationCell, GenerationCell, GenerationRunRecord } from './generation-results.js';
import type { BetweenRounds } from '../../core/results.js';
import { generationThreadsUsed, pairGenerationCells, ratio, type GenerationCellPair } from './generation-comparison.js';
import { frame, machineLine } from '../../../reports/view-charts.js';
import { RUN_COLORS } from '../../../reports/engine-palette.js';

type Metric = 'ttft' | 'tpot';

/** `onnx-cpu · batch 1 · prompt 8 · new 4 · 2 threads`: every field a generation cell is matched on. */
export function generationPairLabel(c: CompletedGenerationCell): string {
  const t = generationThreadsUsed(c);
  return `${c.engine} · batch ${c.batchSize} · prompt ${c.promptLength} · new ${c.newTokens} · ${t === null ? 'default threads' : `${t} thread${t === 1 ? '' : 's'}`}`;
}

/**
 * One side's point: the mean of round means with its interval; a record from
 * before rounds is its pooled mean alone. The low end is clipped at the
 * fastest round mean, as `run`'s chart does, so a log axis can place it.
 */
function point(cell: CompletedGenerationCell, metric: Metric): { mean: number; low: number; high: number; rounds: number } | null {
  const rounds: BetweenRounds | null | undefined = metric === 'ttft' ? cell.betweenRounds?.ttft : cell.betweenRounds?.tpot;
  const pooled = metric === 'ttft' ? cell.ttft.mean : cell.tpot?.mean;
  if (!rounds) return pooled === undefined ? null : { mean: pooled, low: pooled, high: pooled, rounds: 1 };
  return { mean: rounds.mean, low: Math.max(rounds.ci95?.low ?? rounds.mean, Math.min(...rounds.means)), high: rounds.ci95?.high ?? rounds.mean, rounds: rounds.rounds };
}

const both = (p: GenerationCellPair): p is GenerationCellPair & { a: CompletedGenerationCell; b: CompletedGenerationCell } => p.a.state === 'completed' && p.b.state === 'completed';

/** True when at least one matched cell completed in both runs, so the chart has something to draw. */
export function canDrawGenerationComparison(pairs: readonly GenerationCellPair[]): boolean {
  return pairs.some(both);
}

/** The vega-lite spec: a TTFT panel and a TPOT panel, one row per matched cell, A above B. */
export function generationComparisonChartSpec(a: GenerationRunRecord, b: GenerationRunRecord, pairs: readonly GenerationCellPair[]): TopLevelSpec {
  const runA = `A: ${a.id}`;
  const runB = `B: ${b.id}`;
  const rows = pairs.filter(both);
  const order = rows.map((p) => generationPairLabel(p.a));
  const panel = (metric: Metric, title: string) => {
    const values = rows.flatMap((p) =>
      ([[runA, p.a], [runB, p.b]] as const).flatMap(([run, cell]) => {
        const v = point(cell, metric);
        return v ? [{ cell: generationPairLabel(p.a), run, ...v }] : [];
      }),
    );
    return {
      title: { text: title, anchor: 'start', fontSize: 13 },
      data: { values },
      width: 380,
      height: Math.max(60, rows.length * 34),
      encoding: {
        y: { field: 'cell', type: 'nominal', sort: order, title: null, axis: metric === 'ttft' ? { labelFontSize: 11, labelLimit: 360 } : null },
        yOffset: { field: 'run', sort: [runA, runB] },
        color: { field: 'run', type: 'nominal', scale: { domain: [runA, runB], range: [...RUN_COLORS] }, legend: { title: null, orient: 'top', direction: 'vertical', labelLimit: 480 } },
      },
      layer: [
        {
          mark: { type: 'rule', strokeWidth: 2 },
          encoding: {
            x: { field: 'low', type: 'quantitative', scale: { type: 'log', nice: false, padding: 12 }, title: `${metric.toUpperCase()} (ms, log scale)`, axis: { format: '~g' } },
            x2: { field: 'high' },
          },
        },
        { mark: { type: 'tick', thickness: 2, size: 10 }, encoding: { x: { field: 'low', type: 'quantitative' } } },
        { mark: { type: 'tick', thickness: 2, size: 10 }, encoding: { x: { field: 'high', type: 'quantitative' } } },
        { mark: { type: 'point', filled: true, size: 40, opacity: 1 }, encoding: { x: { field: 'mean', type: 'quantitative' } } },
      ],
    };
  };
  const notDrawn = pairs.filter((p) => !both(p)).length;
  const subtitle = [
    'dot = mean of round means, whisker = its 95% interval across rounds (each round a fresh engine open); no faster/slower call is made',
    `A: ${machineLine(a)}`,
    `B: ${machineLine(b)}`,
    ...(notDrawn > 0 ? [`${notDrawn} matched cell${notDrawn === 1 ? '' : 's'} not drawn: not completed in both runs`] : []),
  ];
  return {
    ...frame(`${a.models[0]?.name ?? ''} – generation comparison: TTFT and TPOT per matched cell, lower is better`, subtitle),
    hconcat: [panel('ttft', 'Time to first token'), panel('tpot', 'Time per output token after the first')],
    spacing: 16,
  } as TopLevelSpec;
}

/**
 * The JSON `GET /api/compare` answers for two generation runs, in the shape
 * the dashboard's Compare tab reads for every kind: one row per cell both
 * runs have, with each side's TTFT (mean of round means) and both ratios.
 * Like the terminal's comparison it makes no faster or slower call (see
 * generation-comparison.ts), and says so on each row.
 */
export function generationComparisonJson(idA: number, idB: number, a: GenerationRunRecord, b: GenerationRunRecord): Record<string, unknown> {
  const pairs = pairGenerationCells(a, b);
  const ttft = (c: GenerationCell): number | null => (c.state === 'completed' ? (c.betweenRounds?.ttft.mean ?? c.ttft.mean) : null);
  const tpot = (c: GenerationCell): number | null => (c.state === 'completed' ? (c.betweenRounds?.tpot?.mean ?? c.tpot?.mean ?? null) : null);
  const paired = new Set(pairs.flatMap((p) => [p.a, p.b]));
  return {
    a: { id: idA },
    b: { id: idB },
    spec: canDrawGenerationComparison(pairs) ? generationComparisonChartSpec(a, b, pairs) : null,
    figure: 'TTFT',
    cells: pairs.map((p) => ({
      label: p.a.state === 'completed' ? generationPairLabel(p.a) : `${p.a.engine} · batch ${p.a.batchSize} · prompt ${p.a.promptLength} · new ${p.a.newTokens}`,
      aMeanMs: ttft(p.a),
      bMeanMs: ttft(p.b),
      callText: `TTFT B/A ${ratio(ttft(p.a) ?? undefined, ttft(p.b) ?? undefined)}, TPOT B/A ${ratio(tpot(p.a) ?? undefined, tpot(p.b) ?? undefined)} (no call)`,
    })),
    onlyInA: a.cells.filter((c) => !paired.has(c)).length,
    onlyInB: b.cells.filter((c) => !paired.has(c)).length,
  };
}
