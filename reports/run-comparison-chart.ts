/**
 * The two-run comparison chart (`compare`'s PNG and the dashboard's Compare
 * tab): one row per cell both runs completed, A above B with their 95%
 * intervals, and the call beside it. Apart from view-charts.ts, whose frame
 * and machine line it shares, so that each file holds one kind of chart.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { RunRecord } from '../src/core/results.js';
import { packLines } from './chart-labels.js';
import { acrossRounds, callWords, compareRuns, EQUIVALENCE_BOUND, type RunComparison } from './run-comparison.js';
import { modelOrder } from './run-summary.js';
import { RUN_COLORS } from './engine-palette.js';
import { wrapPixels } from './chart-width.js';
import { frame, machineLine, ORANGE, RED } from './view-charts.js';

/**
 * The comparison chart's columns in CSS pixels: cell names, the plot, the
 * calls. With the axis, gaps and padding they make about 900 px, a
 * dashboard panel's width at 1366×768; the calls were cut at 190 px and the
 * names at 320.
 */
const COMPARE_CELL_PX = 250;
const COMPARE_PLOT_PX = 340;
const COMPARE_CALL_PX = 240;
/** Where a cell name or call breaks onto its next line (vega's text lineBreak, the axis labels' split). */
const LINE_BREAK = '\n';

const CALL_COLORS: Record<string, string> = { faster: '#2e7d32', slower: RED, 'no difference': '#666666', inconclusive: ORANGE };

/**
 * Mean engine time per batch of every cell both runs completed, as the mean
 * of its round means with their 95% interval (a point for a one-round cell),
 * A above B, and the call beside it (the log-ratio t-test on round means plus the
 * minimum effect; see run-comparison.ts).
 */
export function runComparisonChartSpec(a: RunRecord, b: RunRecord, comparison: RunComparison = compareRuns(a, b)): TopLevelSpec {
  const runA = `A: ${a.id}`;
  const runB = `B: ${b.id}`;
  const rows = comparison.cells.filter((c) => c.a.state === 'completed' && c.b.state === 'completed');
  // Cell names and calls wrap onto lines of their columns rather than being cut ("tiny-bert (embedded default) · fp32 · onnx-cpu · 1 threa…").
  const cellLines = new Map(rows.map((c) => [c.label, wrapPixels(c.label, 11, COMPARE_CELL_PX).map((l) => l.trim())]));
  const cellOf = (label: string): string => (cellLines.get(label) ?? [label]).join(LINE_BREAK);
  const values = rows.flatMap((c) =>
    ([[runA, c.a], [runB, c.b]] as const).flatMap(([run, cell]) => {
      if (cell.state !== 'completed') return [];
      const r = acrossRounds(cell);
      // The interval is built on the log scale (src/core/statistics.ts), so it never reaches 0 and a log axis places it as is.
      return [{ cell: cellOf(c.label), run, mean: r.mean, low: r.ci95?.low ?? r.mean, high: r.ci95?.high ?? r.mean }];
    }),
  );
  const calls = rows.map((c) => {
    const noisy = [c.verdictA === 'NOISY' ? 'A' : '', c.verdictB === 'NOISY' ? 'B' : ''].filter((s) => s !== '');
    const wrong = [c.parityA === false ? 'A' : '', c.parityB === false ? 'B' : ''].filter((s) => s !== '');
    // The same words as the terminal and the dashboard (callWords).
    const call = c.call === 'not compared' ? `not compared: ${c.note ?? ''}` : callWords(c);
    const notes = [noisy.length > 0 ? `${noisy.join(', ')} NOISY` : '', wrong.length > 0 ? `✗ PARITY in ${wrong.join(', ')}` : ''].filter((s) => s !== '');
    const text = notes.length > 0 ? `${call} (${notes.join('; ')})` : call;
    return {
      cell: cellOf(c.label),
      call: wrapPixels(text, 11, COMPARE_CALL_PX, true).map((l) => l.trim()).join(LINE_BREAK),
      color: wrong.length > 0 ? RED : (CALL_COLORS[c.call] ?? '#666666'),
    };
  });
  const order = rows.map((c) => cellOf(c.label));
  const count = (call: string): number => rows.filter((c) => c.call === call).length;
  const subtitle = [
    `a change is called only when the t-test of log(B/A) on round means (Welch df) gives p < 0.05, i.e. B/A's 95% interval excludes 1, and |B/A − 1| ≥ ${+(comparison.minEffect * 100).toFixed(1)}% · B faster in ${count('faster')}, ` +
      `slower in ${count('slower')}, no difference (95% interval within ±${EQUIVALENCE_BOUND * 100}%) in ${count('no difference')}, inconclusive in ${count('inconclusive')} of ${rows.length} cells`,
    `A: ${machineLine(a)}`,
    `B: ${machineLine(b)}`,
  ];
  const notCompared = comparison.cells.filter((c) => c.call === 'not compared').map((c) => `${c.label} (${c.note})`);
  if (notCompared.length > 0) subtitle.push(...packLines(`not compared: `, notCompared, 130, 3));
  const only = [
    comparison.onlyInA.length > 0 ? `${comparison.onlyInA.length} only in A` : '',
    comparison.onlyInB.length > 0 ? `${comparison.onlyInB.length} only in B` : '',
  ].filter((t) => t !== '');
  if (only.length > 0) subtitle.push(`cells without a match: ${only.join(', ')}`);
  if (rows.length === 0) subtitle.unshift('nothing to draw: no cell completed in both runs');
  const y = { field: 'cell', type: 'nominal', sort: order, title: null };
  const lines = Math.max(1, ...[...cellLines.values()].map((l) => l.length), ...calls.map((c) => c.call.split(LINE_BREAK).length));
  const height = Math.max(60, rows.length * Math.max(30, lines * 14 + 6));
  return {
    ...frame(`${modelOrder(a).join(', ')} – run comparison: mean engine time per batch across rounds with 95% CI, lower is better`, subtitle),
    hconcat: [
      {
        data: { values },
        width: COMPARE_PLOT_PX,
        height,
        encoding: {
          y: { ...y, axis: { labelFontSize: 11, labelLimit: 0, labelExpr: `split(datum.value, '\\n')` } },
          yOffset: { field: 'run', sort: [runA, runB] },
          color: {
            field: 'run',
            type: 'nominal',
            scale: { domain: [runA, runB], range: [...RUN_COLORS] },
            legend: { title: null, orient: 'top', direction: 'vertical', labelLimit: 480 },
          },
        },
        layer: [
          {
            mark: { type: 'rule', strokeWidth: 2 },
            encoding: {
              x: { field: 'low', type: 'quantitative', scale: { type: 'log', nice: false, padding: 12 }, title: 'mean engine time per batch (ms, log scale)', axis: { format: '~g' } },
              x2: { field: 'high' },
            },
          },
          { mark: { type: 'tick', thickness: 2, size: 10 }, encoding: { x: { field: 'low', type: 'quantitative' } } },
          { mark: { type: 'tick', thickness: 2, size: 10 }, encoding: { x: { field: 'high', type: 'quantitative' } } },
          { mark: { type: 'point', filled: true, size: 40, opacity: 1 }, encoding: { x: { field: 'mean', type: 'quantitative' } } },
        ],
      },
      {
        data: { values: calls },
        width: COMPARE_CALL_PX,
        height,
        mark: { type: 'text', align: 'left', fontSize: 11, fontWeight: 'bold', lineBreak: LINE_BREAK },
        encoding: {
          y: { ...y, axis: null },
          x: { value: 4 },
          text: { field: 'call' },
          color: { field: 'color', type: 'nominal', scale: null },
        },
      },
    ],
    spacing: 8,
  } as TopLevelSpec;
}
