/**
 * The comparison chart as a vega-lite spec: plain JSON, so it can be saved
 * next to the PNG, opened in the vega editor, or rendered by `renderPng`.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { CompletedCell, RunRecord } from '../src/core/results.js';
import { batchSizes, engineLabeller, modelOrder, orderedCells, sequenceLengths, sequenceOf } from './run-summary.js';
import { browserRuntime } from './browser-label.js';
import { type BaselineRow, baselineRows } from './run-views.js';
import { formatDuration, formatTimestamp } from '../src/core/units.js';
import { colorScale } from './engine-palette.js';
import { footnote } from './chart-width.js';

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

const ENGINE_SEGMENT = 'engine time';
const REST_SEGMENT = 'callbacks and read-back (pipeline: its own tokenization and post-processing)';
const PREPARE_SEGMENT = 'item callback (tokenize, collate)';

/** A bar segment, an error bar or a gap label of one cell. */
interface CellMarks {
  readonly segments: Record<string, unknown>[];
  readonly errors: Record<string, unknown>[];
  readonly gaps: Record<string, unknown>[];
  /** A dashed outline round the whole bar of a NOISY cell. */
  readonly outlines: Record<string, unknown>[];
}

/** Bars spanning more than this factor are drawn on a log axis. */
const LOG_SPAN = 10;
/** The one legend entry of the outline on NOISY bars. */
const NOISY_MARK = 'NOISY (rounds disagree)';

/**
 * The time to stream every row once (one pass), per engine at each batch
 * size: the seed's "total duration", as a stacked bar of engine time and the
 * time around it (the item callback and read-back; for a pipeline engine the
 * rest of its own call), each with its 95% interval across rounds as an
 * error bar. Every figure is the mean of round means × batches of a pass
 * (views.ts), so a fast engine is never drawn with more work than a slow
 * one. A cell without a whole pass has no bar: a label in its place says
 * why. The subtitle names the errored and skipped cells, so an absent bar is
 * never mistaken for zero, and the threads each engine reported.
 */
export function comparisonChartSpec(run: RunRecord): TopLevelSpec {
  const label = engineLabeller(run);
  const models = modelOrder(run);
  const rows = baselineRows(run);
  const cells = orderedCells(run);
  const done = cells.flatMap((c, i) => (c.state === 'completed' ? [{ cell: c, row: rows[i] as BaselineRow }] : []));
  // Node engines first, then browser engines, in each batch group: the two runtimes side by side.
  const runtimeOf = (c: CompletedCell): 'node' | 'browser' => (c.session.browser ? 'browser' : 'node');
  const mixed = done.some(({ cell }) => runtimeOf(cell) === 'browser');
  const engines = [...new Set([...done].sort((a, b) => Number(runtimeOf(a.cell) === 'browser') - Number(runtimeOf(b.cell) === 'browser')).map(({ cell }) => label(cell)))];
  const batches = batchSizes(run).filter((b) => done.some(({ cell }) => cell.batchSize === b));
  // One bar group per batch size and sequence length, so lengths are never stacked into one bar.
  const lengths = sequenceLengths(run).filter((l) => done.some(({ cell }) => sequenceOf(cell) === l));
  const groupOf = (c: CompletedCell): string => `batch ${c.batchSize}${lengths.length > 1 && sequenceOf(c) !== null ? ` · seq ${sequenceOf(c)}` : ''}`;
  const groups = [...new Set(batches.flatMap((b) => lengths.flatMap((l) => done.filter(({ cell }) => cell.batchSize === b && sequenceOf(cell) === l).map(({ cell }) => groupOf(cell)))))];
  const topOf = (r: BaselineRow): number => r.endToEnd?.passCi95?.high ?? r.endToEnd?.passMs ?? (r.engineTime?.passMs ?? 0) + (r.prepare?.passMs ?? 0);
  const maxMs = Math.max(0, ...done.map(({ row }) => (row.partial !== null ? 0 : Math.max(topOf(row), row.engineTime?.passCi95?.high ?? 0))));
  const [unit, divisor] = maxMs >= 1000 ? ['s', 1000] : ['ms', 1];
  const passes = done.flatMap(({ row }) => (row.partial === null && row.engineTime?.passMs ? [row.engineTime.passMs] : []));
  const minMs = Math.min(...passes);
  const log = passes.length > 1 && maxMs / minMs > LOG_SPAN;
  const floor = log ? 10 ** Math.floor(Math.log10((minMs / divisor) * 0.5)) : 0;
  const marks: CellMarks = { segments: [], errors: [], gaps: [], outlines: [] };
  for (const { cell, row } of done) {
    const at = { model: cell.model, engine: label(cell), batch: cell.batchSize, group: groupOf(cell), runtime: runtimeOf(cell) === 'browser' ? browserRuntime(run) : `Node ${run.environment.node}` };
    const engine = row.engineTime;
    if (row.partial !== null || engine?.passMs === null || engine?.passMs === undefined) {
      marks.gaps.push({ ...at, text: `no bar: ${row.partial ?? 'pass length not recorded'}` });
      continue;
    }
    const enginePass = engine.passMs;
    const total = row.endToEnd?.passMs ?? enginePass + (row.prepare?.passMs ?? 0);
    const rest = row.endToEnd ? REST_SEGMENT : PREPARE_SEGMENT;
    const wrong = row.parityOk === false;
    const text = `${formatDuration(total)} (engine ${formatDuration(enginePass)})${wrong ? ' ✗ PARITY' : ''}`;
    const tip = { total: formatDuration(total), engineTotal: formatDuration(enginePass), mean: formatDuration(row.meanMs ?? 0), threads: row.threads === null ? 'default' : String(row.threads) };
    // The label sits above the bar and both error bars, so no line crosses it.
    const labelAt = Math.max(total, engine.passCi95?.high ?? 0, row.endToEnd?.passCi95?.high ?? 0) / divisor;
    marks.segments.push({ ...at, ...tip, segment: ENGINE_SEGMENT, y0: floor, y1: enginePass / divisor, label: '', labelAt, labelColor: '#333333' });
    marks.segments.push({ ...at, ...tip, segment: rest, y0: enginePass / divisor, y1: Math.max(enginePass, total) / divisor, label: text, labelAt, labelColor: wrong ? '#c62828' : '#333333' });
    // The engine interval left of the bar's centre, the end-to-end one right of it, so the two never overlap.
    if (engine.passCi95) marks.errors.push({ ...at, which: 'engine', low: Math.max(floor, engine.passCi95.low / divisor), high: engine.passCi95.high / divisor });
    const e2eCi = row.endToEnd?.passCi95;
    if (e2eCi) marks.errors.push({ ...at, which: 'end-to-end', low: Math.max(floor, e2eCi.low / divisor), high: e2eCi.high / divisor });
    if (row.verdict?.status === 'NOISY') marks.outlines.push({ ...at, y0: floor, y1: Math.max(enginePass, total) / divisor, check: NOISY_MARK });
  }
  const segments = [ENGINE_SEGMENT, ...[REST_SEGMENT, PREPARE_SEGMENT].filter((x) => marks.segments.some((m) => m['segment'] === x))];
  const env = run.environment;
  // Threads read back, grouped by count ("2: onnx-cpu, transformers-js"), at most two lines: the list once set the picture's width.
  const byThreads = new Map<string, string[]>();
  for (const { cell, row } of done) {
    const key = String(row.threads ?? 'default');
    const names = byThreads.get(key) ?? [];
    if (!names.includes(label(cell))) names.push(label(cell));
    byThreads.set(key, names);
  }
  const threads = footnote(`threads read back: ${[...byThreads].map(([n, names]) => `${n} for ${names.join(', ')}`).join('; ')}`, 'results.csv has every cell\'s threads');
  const anyPipeline = done.some(({ row }) => row.engineTime?.covers.startsWith("the pipeline's"));
  const subtitle = [
    `one pass = every row once (${describeRows(done.map(({ row }) => row))}) · bar: end to end, split into engine time and the callbacks and read-back around it · mean of round means × batches of a pass`,
    'error bars: 95% CI across rounds, engine time left of centre, end to end right of it · label: end to end (engine time)',
    `engine time: the engine call, inputs in to outputs in host memory${anyPipeline ? "; transformers-js: its pipeline's own forward, the rest of its call (tokenization, post-processing) in the upper segment" : ''}`,
    ...threads,
    `${env.cpuModel}, ${env.cores} cores · node ${env.node} · ${formatTimestamp(env.date)}`,
    ...(marks.outlines.length > 0 ? [`dashed outline: a NOISY cell (its rounds disagree by more than ±5%: ${marks.outlines.length} of ${done.length} bars)`] : []),
    ...(mixed ? [`in each batch group: Node engines first, then browser engines (${browserRuntime(run).replace(/^browser \(|\)$/g, '')}, outlined bars)`] : []),
    ...missingCells(run).map((line) => `not shown, ${line}`),
    ...(marks.gaps.length > 0 ? [`no bar where a cell saw no whole pass (it saw other rows): ${marks.gaps.map((g) => `${String(g['engine'])} ${String(g['group'])}`).join(', ')}`] : []),
  ];
  if (done.length === 0) subtitle.unshift('no cell completed, so there is nothing to draw');

  const x = { field: 'group', type: 'ordinal' as const, title: lengths.length > 1 ? 'batch size · sequence length' : 'batch size', sort: groups, axis: { labelAngle: 0 }, scale: { domain: groups } };
  const xOffset = { field: 'engine', type: 'nominal' as const, sort: engines, scale: { domain: engines } };
  // Bars spanning more than 10× share a log axis, named on it, so a 17 ms bar is seen beside an 870 ms one; the bars then start at a power of ten below the shortest.
  const yScale = log ? { type: 'log' as const, domain: [floor, (maxMs / divisor) * 3], nice: false } : { domain: [0, (maxMs / divisor) * 1.5] };
  const color = { field: 'engine', type: 'nominal' as const, sort: engines, scale: colorScale(engines), legend: { title: 'engine', orient: 'right' as const, symbolType: 'square' } };
  // Browser bars are outlined, with a legend of their own, so a reader tells the runtimes apart without reading names.
  const runtimeStroke = mixed
    ? {
        stroke: { field: 'runtime', type: 'nominal' as const, scale: { domain: [`Node ${run.environment.node}`, browserRuntime(run)], range: ['#00000000', '#222222'] }, legend: { title: 'runtime', orient: 'right' as const, symbolType: 'square', symbolFillColor: '#bbbbbb' } },
        strokeWidth: { value: 1.5 },
      }
    : {};
  const layer = [
    {
      transform: [{ filter: { field: 'kind', equal: 'segment' } }],
      mark: { type: 'bar' as const },
      encoding: {
        x,
        xOffset,
        y: { field: 'y0', type: 'quantitative' as const, title: `time of one pass (${unit}${log ? ', log scale' : ''}), lower is better`, axis: { format: log ? '~g' : ',~r' }, scale: yScale },
        y2: { field: 'y1' },
        color,
        opacity: { field: 'segment', type: 'ordinal' as const, sort: segments, scale: { domain: segments, range: segments.map((x) => (x === ENGINE_SEGMENT ? 1 : 0.4)) }, legend: { title: 'segment', orient: 'bottom' as const, symbolType: 'square', labelLimit: 520 } },
        tooltip: [
          { field: 'engine', type: 'nominal' as const },
          { field: 'batch', type: 'ordinal' as const },
          { field: 'threads', title: 'threads read back' },
          { field: 'total', title: 'one pass, end to end' },
          { field: 'engineTotal', title: 'one pass, engine time' },
          { field: 'mean', title: 'engine time per batch (mean of round means)' },
        ],
        ...runtimeStroke,
      },
    },
    {
      transform: [{ filter: { field: 'kind', equal: 'segment' } }, { filter: "datum.label !== ''" }],
      mark: { type: 'text' as const, angle: 270, align: 'left' as const, baseline: 'middle' as const, dx: 4, fontSize: 10 },
      encoding: { x, xOffset, y: { field: 'labelAt', type: 'quantitative' as const, scale: yScale }, text: { field: 'label' }, color: { field: 'labelColor', type: 'nominal' as const, scale: null } },
    },
    {
      // Each bar's band split in two (its own xOffset scale): the engine interval in the left half, end to end in the right.
      transform: [{ filter: { field: 'kind', equal: 'error' } }, { calculate: "datum.engine + ' | ' + datum.which", as: 'slot' }],
      mark: { type: 'rule' as const, color: '#222222', strokeWidth: 1.5 },
      encoding: {
        x,
        xOffset: { field: 'slot', type: 'nominal' as const, scale: { domain: engines.flatMap((e) => [`${e} | engine`, `${e} | end-to-end`]) } },
        y: { field: 'low', type: 'quantitative' as const, scale: yScale },
        y2: { field: 'high' },
      },
    },
    ...(marks.outlines.length === 0 ? [] : [{
      // A NOISY bar is outlined, dashed, with one legend entry: the verdict is seen on the bar, not only in the table.
      transform: [{ filter: { field: 'kind', equal: 'outline' } }],
      mark: { type: 'bar' as const, fill: 'transparent', stroke: '#111111', strokeWidth: 1.5 },
      encoding: {
        x,
        xOffset,
        y: { field: 'y0', type: 'quantitative' as const, scale: yScale },
        y2: { field: 'y1' },
        strokeDash: { field: 'check', type: 'nominal' as const, scale: { domain: [NOISY_MARK], range: [[4, 3]] }, legend: { title: 'check', orient: 'right' as const, symbolType: 'square', symbolStrokeColor: '#111111', symbolFillColor: 'white' } },
      },
    }]),
    {
      transform: [{ filter: { field: 'kind', equal: 'gap' } }],
      mark: { type: 'text' as const, angle: 270, align: 'left' as const, baseline: 'middle' as const, dx: 4, fontSize: 10, color: '#b35c00' },
      encoding: { x, xOffset, y: { datum: log ? floor : 0, type: 'quantitative' as const, scale: yScale }, text: { field: 'text' } },
    },
  ];
  // Wide enough that bars, not margins, fill the picture; 26 px per bar at least.
  const size = { width: Math.max(560, groups.length * (engines.length + 1) * 26), height: 360 };
  const common = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: `${models.join(', ')} – time to stream every row once, per engine and batch size, lower is better`,
      subtitle,
      anchor: 'start' as const,
      fontSize: 15,
      subtitleFontSize: 11,
      subtitleColor: '#555555',
      offset: 14,
    },
    background: 'white',
    padding: 16,
    config: { font: CHART_FONT, view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 12 } },
  };
  const data = {
    values: [
      ...marks.segments.map((m) => ({ ...m, kind: 'segment' })),
      ...marks.errors.map((m) => ({ ...m, kind: 'error' })),
      ...marks.gaps.map((m) => ({ ...m, kind: 'gap' })),
      ...marks.outlines.map((m) => ({ ...m, kind: 'outline' })),
    ],
  };
  const resolve = { scale: { xOffset: 'independent' } };
  if (models.length <= 1) return { ...common, data, ...size, layer, resolve } as TopLevelSpec;
  // Models (and precision variants) wrap two to a row, so a sweep of several grows down, not into a strip.
  return { ...common, data, facet: { field: 'model', type: 'nominal', title: null, sort: models, header: { labelFontSize: 13, labelFontWeight: 'bold' } }, columns: Math.min(2, models.length), spec: { ...size, layer, resolve } } as TopLevelSpec;
}

/** `256 rows` when every cell's pass holds the same rows, else `each cell's rows`. */
function describeRows(rows: readonly BaselineRow[]): string {
  const counts = new Set(rows.flatMap((r) => (r.pass ? [r.pass.rows] : [])));
  const [only] = counts;
  return counts.size === 1 && only !== undefined ? `${only} rows` : "each cell's rows";
}
