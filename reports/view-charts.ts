/**
 * Vega-lite specs of the dashboard views (core scaling, batch scaling; the
 * latency distribution is in latency-chart.ts; a two-run comparison in
 * run-comparison-chart.ts). Plain JSON drawn from
 * the pure views in views.ts, so a web page can embed the same specs with
 * user-picked fixed values, and `renderPng` can draw them for a run folder.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { RunRecord } from '../src/core/results.js';
import { LABEL_OFFSET, labelAlign, type LabelPlace, PANEL_HEIGHT, packLines, pixelScale, placeInPlot } from './chart-labels.js';
import { CHART_FONT, missingCells } from './chart-spec.js';
import { engineOrder, modelOrder } from './run-summary.js';
import { softwareAdapterNote } from '../src/core/gpu-adapter.js';
import { formatDuration, formatRate, formatTimestamp } from '../src/core/units.js';
import {
  batchScalingView,
  coreScalingView,
  describeThreads,
  isPipeline,
  type ScalingPoint,
  type ScalingSeries,
  type ScalingView,
} from './run-views.js';
import { colorScale } from './engine-palette.js';
import type { ListRoom } from './chart-width.js';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
/** Red for a word a reader must not miss; the comparison chart's 'slower' too. */
export const RED = '#c62828';
/** Orange for untrustworthy timing; the comparison chart's 'inconclusive' too. */
export const ORANGE = '#b35c00';
/** The ring round a NOISY point: black, a colour no engine has, so it never reads as another engine's point. */
const RING = '#000000';
/** The ring's legend entry. */
const NOISY_RING = 'NOISY (rounds disagree)';

/** The title block, white background, font and axis styles every chart shares. */
export function frame(title: string, subtitle: readonly string[]): Record<string, unknown> {
  return {
    $schema: SCHEMA,
    title: { text: title, subtitle: [...subtitle], anchor: 'start', fontSize: 15, subtitleFontSize: 11, subtitleColor: '#555555', offset: 14 },
    background: 'white',
    padding: 16,
    config: {
      font: CHART_FONT,
      view: { stroke: null },
      axis: { labelFontSize: 11, titleFontSize: 12, gridColor: '#e8e8e8' },
      legend: { labelFontSize: 11, titleFontSize: 12 },
      header: { labelFontSize: 12, labelFontWeight: 'bold' },
    },
  };
}

/** `AMD EPYC 7B13, 16 cores · node v20 · 2025-11-22 13:40:05 UTC`, plus ` · software adapter (SwiftShader), not a GPU: onnx-webgpu` where one ran (axis labels may be cut short). */
export function machineLine(run: Pick<RunRecord, 'environment'> & { readonly cells?: readonly unknown[] }): string {
  const env = run.environment;
  const gpu = env.gpus.length > 0 ? ` · ${env.gpus.join(', ')}` : '';
  return `${env.cpuModel}, ${env.cores} cores${gpu} · node ${env.node} · ${formatTimestamp(env.date)}${softwareAdapterNote(run.cells ?? [])}`;
}


/** ms or s for an axis, from its largest value, and the divisor to get there. */
export function durationUnit(maxMs: number): { unit: string; divisor: number } {
  return maxMs >= 1000 ? { unit: 's', divisor: 1000 } : { unit: 'ms', divisor: 1 };
}

/** A red or orange word under a point that a reader must not miss: wrong outputs, or untrustworthy timing. */
function flagOf(p: ScalingPoint, markNoisy: boolean): { flag: string; flagColor: string } {
  const parts = [p.parityOk === false ? '✗ PARITY' : '', markNoisy && p.verdict === 'NOISY' ? 'NOISY' : ''].filter((s) => s !== '');
  return { flag: parts.join(' · '), flagColor: p.parityOk === false ? RED : ORANGE };
}

/** What every engine-time figure on a chart covers, true for every row it sits over. */
export function engineScopeText(run: RunRecord): string {
  const pipeline = run.cells.some((c) => c.state === 'completed' && isPipeline(c));
  return `engine time (the engine call${pipeline ? "; transformers-js: its pipeline's own forward" : ''}), mean of round means`;
}

/** `no figures: tfjs-wasm at 2, 4 threads (skipped)` lines, so a missing point is never read as a dip. */
function gapLines(series: readonly ScalingSeries[], unit: (x: number[]) => string): string[] {
  const parts: string[] = [];
  for (const s of series) {
    for (const state of ['errored', 'skipped', 'partial'] as const) {
      const xs = s.gaps.filter((g) => g.state === state).map((g) => g.x);
      if (xs.length > 0) parts.push(`${s.label} at ${unit(xs)} (${state})`);
    }
  }
  return parts.length > 0 ? [`no figures: ${parts.join(', ')}`] : [];
}

/** The flagged points' lines: one a flag, whole, or packed into `lists` (the dashboard's one line, the rest counted). */
function flagLines(series: readonly ScalingSeries[], unit: (x: number[]) => string, lists?: ListRoom): string[] {
  const lines: string[] = [];
  for (const [test, text] of [
    [(p: ScalingPoint) => p.parityOk === false, '✗ PARITY: outputs differ from the reference beyond tolerance'],
    [(p: ScalingPoint) => p.verdict === 'NOISY', 'NOISY: timing spread too wide to trust'],
  ] as const) {
    const where = series.flatMap((s) => {
      const xs = s.points.filter(test).map((p) => p.x);
      return xs.length > 0 ? [`${s.label} at ${unit(xs)}`] : [];
    });
    if (allPoints(series, test)) lines.push(`${text} (every point)`);
    else if (where.length > 0) lines.push(...(lists ? packLines(`${text}: `, where, lists.chars, lists.lines) : [`${text} (${where.join(', ')})`]));
  }
  return lines;
}

interface PanelOptions {
  readonly xs: readonly number[];
  readonly xTitle: string;
  readonly yField: string;
  readonly yTitle: string;
  readonly yLog: boolean;
  /** Data field holding the point label's text; its placement is in `<labelField>Place`. */
  readonly labelField: string;
  readonly colors: readonly string[];
  /** Fields of the y value's 95% interval, drawn as an error bar; absent: no interval (a pooled percentile). */
  readonly interval?: readonly [string, string];
  /** Panel names when the run has several models, variants or lengths: one panel each, stacked. */
  readonly panels: readonly string[];
  /** Some point is NOISY: draw the rings, with their legend entry. */
  readonly noisy?: boolean;
}

/**
 * Lines with points on a log2 x axis, each point labelled where placeInPlot (chart-labels.ts)
 * put it, flagged labels in colour, the 95% interval as an error bar and an
 * black ring round each NOISY point. With several panels (models, variants,
 * lengths) one panel each, stacked with the panel named above it, and the
 * colour left to the engine alone.
 */
function scalingPanel(o: PanelOptions): Record<string, unknown> {
  const unit = scalingUnit(o);
  if (o.panels.length <= 1) return unit;
  const { width, height, ...inner } = unit;
  return {
    facet: { field: 'panel', type: 'nominal', sort: [...o.panels], title: null, header: { labelAnchor: 'start', labelLimit: 0, labelFontSize: 12 } },
    columns: 1,
    // Panels are laid out by their plot areas alone, so a label above a point never pushes its column out of line with the other.
    bounds: 'flush',
    spacing: 56,
    spec: { width, height, ...inner },
    resolve: { scale: { y: 'independent' } },
  };
}

/** A scaling panel's plot width: room for each x's labels. */
const scalingWidth = (xs: readonly number[]): number => Math.max(360, xs.length * 110);
/** The x axis of a scaling panel and the padding its log y axes get: the scales scalingValues reproduces to place labels. */
const X_SCALE = { type: 'log', padding: 36 } as const;
const Y_LOG_PADDING = 24;

/**
 * The layers draw every row and hide what a row does not have (a label
 * placed elsewhere, a ring round a sound cell, an interval a one-round cell
 * lacks) rather than filter rows out: vega computes each layer's extent on
 * its own rows, and a layer left empty in a panel (no label below any point,
 * no NOISY cell) logged "Infinite extent for field x" on the dashboard, four
 * to sixteen times a draw.
 */
function scalingUnit(o: PanelOptions): Record<string, unknown> {
  const place = `${o.labelField}Place`;
  const label = (where: Exclude<LabelPlace, 'none'>): Record<string, unknown> => ({
    mark: { type: 'text', ...LABEL_OFFSET[where], fontSize: 10, baseline: 'middle', align: labelAlign(where) },
    encoding: { text: { condition: { test: `datum.${place} == '${where}'`, field: o.labelField }, value: '' }, color: { field: 'labelColor', type: 'nominal', scale: null } },
  });
  return {
    width: scalingWidth(o.xs),
    height: PANEL_HEIGHT,
    encoding: {
      x: {
        field: 'x',
        type: 'quantitative',
        title: o.xTitle,
        scale: { type: 'log', base: 2, nice: false, padding: X_SCALE.padding },
        axis: { values: [...o.xs], format: 'd', grid: false },
      },
      y: {
        field: o.yField,
        type: 'quantitative',
        title: o.yTitle,
        scale: o.yLog ? { type: 'log', nice: false, padding: Y_LOG_PADDING } : { zero: true, nice: true },
        axis: { format: ',~r' },
      },
      color: {
        field: 'series',
        type: 'nominal',
        scale: colorScale(o.colors),
        legend: { title: 'engine', orient: 'right' },
      },
    },
    layer: [
      { mark: { type: 'line', strokeWidth: 2 } },
      ...(o.interval
        ? [{ mark: { type: 'rule', strokeWidth: 1.5, opacity: 0.8 }, encoding: { y: { field: `${o.interval[0]}OrPoint`, type: 'quantitative' }, y2: { field: `${o.interval[1]}OrPoint` } } }]
        : []),
      { mark: { type: 'point', filled: true, size: 60, opacity: 1 } },
      // The ring's colour is set on the encoding: a mark colour loses to the layer's colour field, and the ring took each line's colour.
      // Its one legend entry, drawn as the ring is (a black circle), only where a point is NOISY; on every row, seen on the
      // NOISY ones, as a layer filtered to none in a panel made vega warn on the dashboard.
      ...(o.noisy !== true ? [] : [{
        transform: [{ calculate: `'${NOISY_RING}'`, as: 'check' }],
        mark: { type: 'point', filled: false, strokeWidth: 1.5 },
        encoding: {
          color: { value: RING },
          opacity: { condition: { test: 'datum.noisy', value: 1 }, value: 0 },
          size: { field: 'check', type: 'ordinal', scale: { domain: [NOISY_RING], range: [220, 220] }, legend: { title: 'check', orient: 'right', symbolType: 'circle', symbolStrokeColor: RING, symbolFillColor: 'transparent', labelLimit: 320 } },
        },
      }]),
      label('above'),
      label('below'),
      label('right'),
      label('left'),
    ],
  };
}

const anyNoisy = (view: ScalingView<unknown>): boolean => view.series.some((s) => s.points.some((p) => p.verdict === 'NOISY'));

/** True when every point of the view passes `test` (and there is one). */
function allPoints(series: readonly ScalingSeries[], test: (p: ScalingPoint) => boolean): boolean {
  const points = series.flatMap((s) => s.points);
  return points.length > 0 && points.every(test);
}

/** `tiny · q8 · seq 16`: the model (with its variant) and length a curve belongs to, its panel when the run has several. */
function panelOf(s: ScalingSeries): string {
  return `${s.model}${s.sequenceLength === null ? '' : ` · seq ${s.sequenceLength}`}`;
}

/** What tells curves of one panel apart, and picks their colour: the engine, and its host in a distributed run. */
function curveOf(s: ScalingSeries): string {
  return `${s.engine}${s.adapterSuffix}${s.host === null ? '' : ` @ ${s.host}`}`;
}

/** The panels of a view, in series order; one when the run has one model, variant and length. */
function panelsOf(view: ScalingView<unknown>): string[] {
  return [...new Set(view.series.filter((s) => s.points.length > 0).map(panelOf))];
}

function scalingValues(view: ScalingView<unknown>, p99Divisor: number): Record<string, unknown>[] {
  // When every point is NOISY the subtitle says so once; repeating it on each label would bury the numbers.
  const markNoisy = !allPoints(view.series, (p) => p.verdict === 'NOISY');
  const rows = view.series.flatMap((s) =>
    s.points.map((p) => {
      const { flag, flagColor } = flagOf(p, markNoisy);
      const suffix = flag === '' ? '' : ` ${flag}`;
      return {
        panel: panelOf(s),
        series: curveOf(s),
        x: p.x,
        sps: p.samplesPerSecond,
        spsLow: p.samplesPerSecondCi95?.low ?? null,
        spsHigh: p.samplesPerSecondCi95?.high ?? null,
        // The interval's ends, or the point itself for a cell without one: a rule of no length, and no row left out.
        spsLowOrPoint: p.samplesPerSecondCi95?.low ?? p.samplesPerSecond,
        spsHighOrPoint: p.samplesPerSecondCi95?.high ?? p.samplesPerSecond,
        noisy: p.verdict === 'NOISY',
        rate: `${formatRate(p.samplesPerSecond)}${suffix}`,
        p99: p.p99Ms / p99Divisor,
        p99Label: `${formatDuration(p.p99Ms)}${suffix}`,
        labelColor: flag === '' ? '#333333' : flagColor,
      };
    }),
  );
  // Labels are placed panel by panel, in the panel's pixels (chart-labels.ts): points of different panels never share a plot.
  // A label may cross a neighbour's NOISY ring, never its point (4.5 px): rings would block every place in a tight cluster.
  const x = pixelScale(X_SCALE, rows.map((r) => r.x), scalingWidth(view.xs));
  const places = new Map<(typeof rows)[number], { ratePlace: LabelPlace; p99LabelPlace: LabelPlace }>();
  for (const panel of new Set(rows.map((r) => r.panel))) {
    const same = rows.filter((r) => r.panel === panel);
    const rate = pixelScale({ type: 'linear', zero: true, nice: true }, same.flatMap((r) => [r.sps, r.spsLow ?? r.sps, r.spsHigh ?? r.sps]), PANEL_HEIGHT);
    const p99 = pixelScale({ type: 'log', padding: Y_LOG_PADDING }, same.map((r) => r.p99), PANEL_HEIGHT);
    const plot = { width: scalingWidth(view.xs), height: PANEL_HEIGHT };
    const at = (y: (v: number) => number, v: (r: (typeof rows)[number]) => number, text: (r: (typeof rows)[number]) => string) =>
      placeInPlot(same.map((r) => ({ x: x(r.x), y: PANEL_HEIGHT - y(v(r)), text: text(r), radius: 4.5 })), plot);
    const ratePlaces = at(rate, (r) => r.sps, (r) => r.rate);
    const p99Places = at(p99, (r) => r.p99, (r) => r.p99Label);
    same.forEach((r, i) => places.set(r, { ratePlace: ratePlaces[i] ?? 'none', p99LabelPlace: p99Places[i] ?? 'none' }));
  }
  return rows.map((r) => ({ ...r, ...places.get(r) }));
}

/** Curves with a point, engines in sweep order, so an engine keeps its colour from chart to chart and a skipped curve takes no legend slot. */
function colorDomain(run: RunRecord, view: ScalingView<unknown>): string[] {
  const order = engineOrder(run);
  const drawn = view.series.filter((s) => s.points.length > 0);
  return [...new Set(drawn.sort((x, y) => order.indexOf(x.engine) - order.indexOf(y.engine)).map(curveOf))];
}

/** What the error bars and rings of a scaling chart mean. */
const MARKS_LINE = 'error bars: 95% interval of samples/s across rounds (on the log scale, never below 0) · black ring: a NOISY cell (rounds disagree or too few batches) · a value label that would overlap another is left out (the table has every figure)';

const threadsUnit = (xs: number[]): string => `${xs.join(', ')} thread${xs.length === 1 && xs[0] === 1 ? '' : 's'}`;
const batchUnit = (xs: number[]): string => `batch ${xs.join(', ')}`;

/**
 * samples/s against thread count at one batch size (default: the largest),
 * one line per engine; the measure of how well an engine uses more cores.
 */
export function coreScalingChartSpec(run: RunRecord, opts: { readonly batchSize?: number; readonly lists?: ListRoom } = {}): TopLevelSpec {
  const view = coreScalingView(run, opts);
  const batch = view.fixed.batchSize;
  const subtitle = [
    `batch ${batch ?? '–'} · samples/s: rows of one pass ÷ ${engineScopeText(run)} × batches of a pass · ${machineLine(run)}`,
    MARKS_LINE,
    ...gapLines(view.series, threadsUnit),
    ...flagLines(view.series, threadsUnit, opts.lists),
  ];
  if (view.insufficient !== null) subtitle.unshift(`nothing to draw: ${view.insufficient}`);
  return {
    ...frame(`${modelOrder(run).join(', ')} – core scaling at batch ${batch ?? '–'}, higher is better`, subtitle),
    data: { values: scalingValues(view, 1) },
    ...scalingPanel({
      xs: view.xs,
      xTitle: 'threads (requested intra-op threads)',
      yField: 'sps',
      yTitle: 'samples/s',
      yLog: false,
      labelField: 'rate',
      colors: colorDomain(run, view),
      interval: ['spsLow', 'spsHigh'],
      panels: panelsOf(view),
      noisy: anyNoisy(view),
    }),
  } as TopLevelSpec;
}

/**
 * samples/s and p99 latency against batch size at one thread setting
 * (default: the one with most completed cells), side by side: the batch
 * size that maximises throughput is rarely the one with acceptable p99.
 */
export function batchScalingChartSpec(run: RunRecord, opts: { readonly threads?: number | null; readonly lists?: ListRoom } = {}): TopLevelSpec {
  const view = batchScalingView(run, opts);
  const threads = describeThreads(view.fixed.threads);
  const { unit, divisor } = durationUnit(Math.max(0, ...view.series.flatMap((s) => s.points.map((p) => p.p99Ms))));
  const subtitle = [
    `samples/s: rows of one pass ÷ ${engineScopeText(run)} × batches of a pass · p99 pools every batch · ${machineLine(run)}`,
    MARKS_LINE,
    ...gapLines(view.series, batchUnit),
    ...flagLines(view.series, batchUnit, opts.lists),
  ];
  if (view.insufficient !== null) subtitle.unshift(`nothing to draw: ${view.insufficient}`);
  const common = { xs: view.xs, xTitle: 'batch size', colors: colorDomain(run, view), panels: panelsOf(view), noisy: anyNoisy(view) };
  return {
    ...frame(`${modelOrder(run).join(', ')} – batch scaling with ${threads}`, subtitle),
    data: { values: scalingValues(view, divisor) },
    // Panels of the two columns line up row by row, whatever their axes' label widths.
    ...(common.panels.length > 1 ? { align: 'each' } : {}),
    hconcat: [
      // Titles short enough for the panel's height, so stacked panels of the two columns stay level.
      scalingPanel({ ...common, yField: 'sps', yTitle: 'samples/s (higher is better)', yLog: false, labelField: 'rate', interval: ['spsLow', 'spsHigh'] }),
      scalingPanel({ ...common, yField: 'p99', yTitle: `p99 per batch (${unit}, log; lower is better)`, yLog: true, labelField: 'p99Label' }),
    ],
    spacing: 40,
  } as unknown as TopLevelSpec;
}
