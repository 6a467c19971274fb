/**
 * The comparison chart as a vega-lite spec: plain JSON, so it can be saved
 * next to the PNG, opened in the vega editor, or rendered by `renderPng`.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { CompletedCell, RunRecord } from '../src/core/results.js';
import { batchSizes, engineLabeller, modelOrder, orderedCells } from './run-summary.js';
import { formatDuration, formatTimestamp } from '../src/core/units.js';

/** Font used in every chart; installed system-wide so resvg finds it. */
export const CHART_FONT = 'DejaVu Sans';

/** Lists non-completed cells by state, e.g. `errored: onnx-wasm (batch 32)`. */
export function missingCells(run: RunRecord): string[] {
  const label = engineLabeller(run);
  const multiModel = modelOrder(run).length > 1;
  const parts: string[] = [];
  for (const state of ['errored', 'skipped'] as const) {
    const byEngine = new Map<string, number[]>();
    for (const cell of orderedCells(run)) {
      if (cell.state !== state) continue;
      const name = multiModel ? `${cell.model} ${label(cell)}` : label(cell);
      byEngine.set(name, [...(byEngine.get(name) ?? []), cell.batchSize]);
    }
    if (byEngine.size === 0) continue;
    const engines = [...byEngine].map(([name, batches]) => `${name} (batch ${batches.join(', ')})`);
    parts.push(`${state}: ${engines.join(', ')}`);
  }
  return parts;
}

const BROWSER_RUNTIME = 'browser (headless Chromium)';

/**
 * Grouped bars of total engine time per engine at each batch size, one
 * group per batch size. Only completed cells are drawn; the subtitle names
 * the errored and skipped ones so an absent bar is never mistaken for zero.
 * The axis unit (ms or s) is picked from the largest bar and named on the axis.
 */
export function comparisonChartSpec(run: RunRecord): TopLevelSpec {
  const label = engineLabeller(run);
  const models = modelOrder(run);
  const completed = orderedCells(run).filter((c): c is CompletedCell => c.state === 'completed');
  // Node engines first, then browser engines, in each batch group: the two runtimes side by side.
  const runtimeOf = (c: CompletedCell): 'node' | 'browser' => (c.session.browser ? 'browser' : 'node');
  const mixed = new Set(completed.map(runtimeOf)).size > 1 || completed.some((c) => runtimeOf(c) === 'browser');
  const engines = [...new Set([...completed].sort((a, b) => Number(runtimeOf(a) === 'browser') - Number(runtimeOf(b) === 'browser')).map(label))];
  const batches = batchSizes(run).filter((b) => completed.some((c) => c.batchSize === b));
  const maxMs = Math.max(0, ...completed.map((c) => c.totalMs));
  const [unit, divisor] = maxMs >= 1000 ? ['s', 1000] : ['ms', 1];
  const values = completed.map((c) => ({
    model: c.model,
    engine: label(c),
    batch: c.batchSize,
    total: c.totalMs / divisor,
    // A bar for wrong answers says so on the bar itself.
    label: c.parity?.withinTolerance === false ? `${formatDuration(c.totalMs)} ✗ PARITY` : formatDuration(c.totalMs),
    labelColor: c.parity?.withinTolerance === false ? '#c62828' : '#333333',
    mean: formatDuration(c.latency.mean),
    runtime: runtimeOf(c) === 'browser' ? BROWSER_RUNTIME : `Node ${run.environment.node}`,
  }));
  const env = run.environment;
  const subtitle = [
    `engine time over ${describeItems(completed)}, tokenization excluded · ${env.cpuModel}, ${env.cores} cores · ` +
      `node ${env.node} · ${formatTimestamp(env.date)}`,
    ...(mixed ? ['in each batch group: Node engines first, then browser engines (headless Chromium, outlined bars)'] : []),
    ...missingCells(run).map((line) => `not shown, ${line}`),
  ];
  if (completed.length === 0) subtitle.unshift('no cell completed, so there is nothing to draw');

  const encoding = {
    x: {
      field: 'batch',
      type: 'ordinal' as const,
      title: 'batch size',
      sort: batches,
      axis: { labelAngle: 0, labelExpr: "'batch ' + datum.label" },
    },
    xOffset: { field: 'engine', type: 'nominal' as const, sort: engines },
    y: {
      field: 'total',
      type: 'quantitative' as const,
      title: `total engine time (${unit}), lower is better`,
      axis: { format: ',~r' },
    },
    color: {
      field: 'engine',
      type: 'nominal' as const,
      sort: engines,
      scale: { scheme: 'tableau10' },
      legend: { title: 'engine', orient: 'right' as const, symbolType: 'square' },
    },
    tooltip: [
      { field: 'engine', type: 'nominal' as const },
      { field: 'batch', type: 'ordinal' as const },
      { field: 'label', title: 'total' },
      { field: 'mean', title: 'mean per batch' },
      ...(mixed ? [{ field: 'runtime', type: 'nominal' as const }] : []),
    ],
  };
  // Browser bars are outlined, with a legend of their own, so a reader tells the runtimes apart without reading names.
  const runtimeStroke = {
    stroke: { field: 'runtime', type: 'nominal' as const, scale: { domain: [`Node ${run.environment.node}`, BROWSER_RUNTIME], range: ['#00000000', '#222222'] }, legend: { title: 'runtime', orient: 'right' as const, symbolType: 'square', symbolFillColor: '#bbbbbb' } },
    strokeWidth: { value: 1.5 },
  };
  const layer = [
    { mark: { type: 'bar' as const, cornerRadiusEnd: 2 }, ...(mixed ? { encoding: runtimeStroke } : {}) },
    {
      mark: { type: 'text' as const, angle: 270, align: 'left' as const, baseline: 'middle' as const, dx: 4, fontSize: 10 },
      encoding: { text: { field: 'label' }, color: { field: 'labelColor', type: 'nominal' as const, scale: null } },
    },
  ];
  // Wide enough that bars, not margins, fill the picture; 24 px per bar at least.
  const size = { width: Math.max(560, batches.length * (engines.length + 1) * 24), height: 320 };
  const common = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: `${models.join(', ')} – total duration per engine and batch size, lower is better`,
      subtitle,
      anchor: 'start' as const,
      fontSize: 15,
      subtitleFontSize: 11,
      subtitleColor: '#555555',
      offset: 14,
    },
    data: { values },
    background: 'white',
    padding: 16,
    config: { font: CHART_FONT, view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 12 } },
  };
  if (models.length <= 1) return { ...common, ...size, encoding, layer } as TopLevelSpec;
  return {
    ...common,
    facet: { column: { field: 'model', type: 'nominal', title: null, sort: models } },
    spec: { ...size, encoding, layer },
  } as TopLevelSpec;
}

/** `96 items per cell` when every cell measured the same count, else `each cell's items`. */
function describeItems(cells: readonly CompletedCell[]): string {
  const counts = new Set(cells.map((c) => c.itemsTotal));
  const [only] = counts;
  return counts.size === 1 && only !== undefined ? `${only} items per cell` : "each cell's items";
}
