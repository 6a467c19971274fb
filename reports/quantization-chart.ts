/**
 * The quantization chart (`quantization.png`): each variant's speed-up over
 * fp32 per engine beside its accuracy drop, so what a variant buys and what
 * it costs are read off one picture.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { RunRecord } from '../src/core/results.js';
import { modelOrder } from './run-summary.js';
import { variantComparison } from './variant-summary.js';
import { frame, machineLine } from './view-charts.js';
import { colorScale } from './engine-palette.js';

/** `+0.8 pt`, `−1.2 pt`, `no change`: an accuracy change as a label. */
function accuracyText(points: number): string {
  if (Math.abs(points) < 0.05) return points === 0 ? 'no change' : `${points > 0 ? '+' : '−'}<0.1 pt`;
  return `${points > 0 ? '+' : '−'}${Math.abs(points).toFixed(1)} pt`;
}

/** Why the chart has nothing to draw, or null when it has. */
export function quantizationChartGap(run: RunRecord): string | null {
  return variantComparison(run).some((r) => r.speedup !== null) ? null : 'no variant has a completed cell beside a completed fp32 cell (add fp32 to --dtype)';
}

/** Left: speed-up over fp32 per variant and engine (one bar group per batch and length); right: accuracy drop per variant and engine. */
export function quantizationChartSpec(run: RunRecord): TopLevelSpec {
  const rows = variantComparison(run);
  const setting = (r: (typeof rows)[number]): string => `batch ${r.batchSize}${r.sequenceLength === null ? '' : ` · seq ${r.sequenceLength}`}`;
  const variants = [...new Set(rows.map((r) => (new Set(rows.map((x) => x.of)).size > 1 ? `${r.of} · ${r.dtype}` : r.dtype)))];
  const label = (r: (typeof rows)[number]): string => (variants.includes(r.dtype) ? r.dtype : `${r.of} · ${r.dtype}`);
  const engines = [...new Set(rows.map((r) => r.engine))];
  const speed = rows.filter((r) => r.speedup !== null).map((r) => ({ variant: `${label(r)} · ${setting(r)}`, engine: r.engine, speedup: r.speedup, text: `${(r.speedup as number).toFixed(2)}×` }));
  // Accuracy does not depend on the batch: one bar per variant and engine.
  const seen = new Set<string>();
  const drops = rows.filter((r) => r.accuracyDrop !== null && !seen.has(`${label(r)}|${r.engine}`) && seen.add(`${label(r)}|${r.engine}`)).map((r) => ({ variant: label(r), engine: r.engine, change: -(r.accuracyDrop as number) * 100, text: accuracyText(-(r.accuracyDrop as number) * 100) }));
  const color = { field: 'engine', type: 'nominal', sort: engines, scale: colorScale(engines), legend: { title: 'engine', orient: 'bottom' } };
  // Labels stand upright above (or below) their bar, so neighbouring bars' labels never overlap; 22 px a bar at least.
  const bars = (data: object[], field: string, title: string, xField: string, order: readonly string[], y: Record<string, unknown> = {}) => ({
    data: { values: data },
    width: Math.max(280, data.length * 22 + order.length * 12),
    height: 300,
    encoding: {
      x: { field: xField, type: 'nominal', title: null, sort: order, axis: { labelAngle: -30, labelLimit: 400 } },
      xOffset: { field: 'engine', type: 'nominal', sort: engines },
      y: { field, type: 'quantitative', title, ...y },
      color,
      tooltip: [{ field: xField }, { field: 'engine' }, { field: 'text', title }],
    },
    layer: [
      { mark: { type: 'bar', cornerRadiusEnd: 2 } },
      ...[true, false].map((below) => ({
        transform: [{ filter: below ? `datum.${field} < 0` : `datum.${field} >= 0` }],
        mark: { type: 'text', angle: 270, baseline: 'middle', fontSize: 10, align: below ? 'right' : 'left', dx: below ? -4 : 4 },
        encoding: { text: { field: 'text' }, color: { value: '#333333' } },
      })),
    ],
  });
  // Accuracy changes of a few tenths of a point, or none at all, still get a readable axis: ±1 point at least, in points with one decimal.
  const changes = drops.map((d) => d.change);
  const reach = Math.max(1, ...changes.map((c) => Math.abs(c) * 1.25));
  const accuracyAxis = { scale: { domain: [-reach, reach], nice: true }, axis: { format: '+.1~f', tickCount: 5 } };
  const subtitle = [
    `speed-up: fp32 engine time per batch (mean of round means) ÷ the variant's, same engine, batch, threads and length (above 1× is faster; none without a whole pass) · ${machineLine(run)}`,
    "accuracy: the variant's accuracy against the labels minus fp32's on the same engine and rows, in points (below 0 is a drop)",
  ];
  const gap = quantizationChartGap(run);
  if (gap) subtitle.unshift(`nothing to draw: ${gap}`);
  return {
    ...frame(`${[...new Set(rows.map((r) => r.of))].join(', ') || modelOrder(run).join(', ')} – each variant against fp32: speed-up and accuracy`, subtitle),
    hconcat: [
      bars(speed, 'speedup', 'speed-up over fp32 (×), higher is better', 'variant', [...new Set(speed.map((d) => d.variant))]),
      bars(drops, 'change', 'accuracy − fp32 accuracy (points), below 0 is a drop', 'variant', variants, accuracyAxis),
    ],
    spacing: 40,
  } as unknown as TopLevelSpec;
}
