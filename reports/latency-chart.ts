/**
 * latency-distribution.png: box plots of the raw per-batch engine times of
 * every completed cell, one small panel per model (and variant), sequence
 * length and batch size, wrapped a row per model and length, each panel on
 * its own log scale. Engines are the x axis inside a panel, so a sweep of
 * several models, lengths and precisions grows the picture downwards, never
 * into an unreadable strip thousands of pixels wide.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { RunRecord } from '../src/core/results.js';
import { percentileOfSorted } from '../src/core/statistics.js';
import { formatDuration } from '../src/core/units.js';
import { type Box, intersects, packLines, pixelScale } from './chart-labels.js';
import { footnote, type ListRoom } from './chart-width.js';
import { measureDejaVu } from './chart-text-metrics.js';
import { missingCells } from './chart-spec.js';
import { engineOrder, modelOrder } from './run-summary.js';
import { wrap } from './text-table.js';
import { durationUnit, engineScopeText, frame, machineLine } from './view-charts.js';
import { type LatencyBox, latencyDistributionView } from './run-views.js';
import { colorScale } from './engine-palette.js';

/** Plot width per engine in a panel, and the panel's least width and its height, in CSS pixels. */
const PER_ENGINE_PX = 34;
const MIN_PANEL_PX = 120;
const PANEL_HEIGHT_PX = 220;
/** Panels per row at most; a row holds one model and length across its batch sizes. */
const MAX_COLUMNS = 4;
/** Average width of a subtitle character at 11 px, for wrapping the subtitle to the picture. */
const SUBTITLE_CHAR_PX = 6.2;

const PANEL_BREAK = ' | ';
/** The y axis padding of a panel, and the median label's size and offset above the box's highest dot. */
const Y_PADDING = 18;
const MEDIAN_FONT = 9;
const MEDIAN_DY = -9;
/** vega-lite's inner band padding for bars (config.scale.bandPaddingInner) and this chart's outer padding. */
const BAND_PADDING_INNER = 0.1;
const BAND_PADDING_OUTER = 0.5;

/**
 * The boxes whose median label is drawn: in each panel, left to right, a
 * label is kept unless it would overlap one already kept (boxes are 34 px
 * apart and "12.3 ms" is 36 px wide). Positions are the panel's pixels:
 * band centres along x, the log y scale (with its padding) at the box's
 * highest dot, where the label sits.
 */
function shownMedians(boxes: readonly LatencyBox[], panelOf: (b: LatencyBox) => string, slot: (b: LatencyBox) => number, slots: number, text: (b: LatencyBox) => string): Set<LatencyBox> {
  const width = Math.max(MIN_PANEL_PX, slots * PER_ENGINE_PX);
  const step = width / Math.max(1, slots - BAND_PADDING_INNER + 2 * BAND_PADDING_OUTER);
  const start = (width - step * (slots - BAND_PADDING_INNER)) / 2;
  const shown = new Set<LatencyBox>();
  for (const panel of new Set(boxes.map(panelOf))) {
    const inPanel = boxes.filter((b) => panelOf(b) === panel).sort((a, b) => slot(a) - slot(b));
    const y = pixelScale({ type: 'log', padding: Y_PADDING }, inPanel.flatMap((b) => b.samplesMs), PANEL_HEIGHT_PX);
    const kept: Box[] = [];
    for (const b of inPanel) {
      if (b.samplesMs.length === 0) continue;
      const cx = start + step * slot(b) + (step * (1 - BAND_PADDING_INNER)) / 2;
      const cy = PANEL_HEIGHT_PX - y(Math.max(...b.samplesMs)) + MEDIAN_DY;
      const w = measureDejaVu(text(b), MEDIAN_FONT, false) / 2 + 1;
      const box = { x0: cx - w, x1: cx + w, y0: cy - MEDIAN_FONT * 0.6, y1: cy + MEDIAN_FONT * 0.6 };
      if (kept.some((k) => intersects(k, box))) continue;
      kept.push(box);
      shown.add(b);
    }
  }
  return shown;
}

/** `tiny · q8 · seq 16`: the model (with its variant) and the sequence length a row of panels is about. */
function rowOf(b: LatencyBox): string {
  return `${b.model}${b.sequenceLength === null ? '' : ` · seq ${b.sequenceLength}`}`;
}

/** The chart's CSS width before padding: panels of a row, their y axes and the gaps between them. */
export function latencyChartWidth(engines: number, columns: number): number {
  return columns * (Math.max(MIN_PANEL_PX, engines * PER_ENGINE_PX) + 70) + 20;
}

/** `lists`: how the NOISY and PARTIAL lists are packed (the dashboard's one line); four and three lines of the picture's width otherwise. */
export function latencyDistributionChartSpec(run: RunRecord, opts: { readonly lists?: ListRoom } = {}): TopLevelSpec {
  const view = latencyDistributionView(run);
  const multiModel = modelOrder(run).length > 1;
  // Inside a panel the model and length are in its header, so a box is named by its engine (and threads) alone.
  const nameOf = (b: LatencyBox): string => (multiModel && b.label.startsWith(`${b.model} `) ? b.label.slice(b.model.length + 1) : b.label);
  const labels = [...new Set(view.boxes.map(nameOf))];
  const rows = [...new Set(view.boxes.map(rowOf))];
  // A header of two lines (split at PANEL_BREAK): the model, then the length and batch, so neither is cut. With one model the
  // title names it, and the header says only what differs between panels: a long model name was cut to "tiny-bert (embedded defau…".
  const titled = !multiModel;
  const panelOf = (b: LatencyBox): string =>
    titled
      ? `${b.sequenceLength === null ? '' : `seq ${b.sequenceLength} · `}batch ${b.batchSize}`
      : `${rowOf(b).replace(' · seq ', `${PANEL_BREAK}seq `)}${b.sequenceLength === null ? PANEL_BREAK : ' · '}batch ${b.batchSize}`;
  const panels = [...new Set(rows.flatMap((r) => view.batchSizes.flatMap((batch) => view.boxes.filter((b) => rowOf(b) === r && b.batchSize === batch).map(panelOf))))];
  // Panels span decades; the unit follows the fastest batch, so no panel reads 0.0005 s.
  const { unit, divisor } = durationUnit(Math.min(Infinity, ...view.boxes.flatMap((b) => b.samplesMs)));
  const medianOf = (b: LatencyBox): string => {
    const sorted = [...b.samplesMs].sort((x, y) => x - y);
    return sorted.length > 0 ? formatDuration(percentileOfSorted(sorted, 50)) : '';
  };
  const shown = shownMedians(view.boxes, panelOf, (b) => labels.indexOf(nameOf(b)), labels.length, medianOf);
  const values = view.boxes.flatMap((b) => {
    const median = medianOf(b);
    // Beyond the whiskers as vega-lite's boxplot puts them: 1.5 × IQR past the quartiles, taken as vega takes them.
    const sorted = [...b.samplesMs].sort((x, y) => x - y);
    const [q1, q3] = sorted.length > 0 ? [percentileOfSorted(sorted, 25), percentileOfSorted(sorted, 75)] : [0, 0];
    const beyond = (ms: number): boolean => ms < q1 - 1.5 * (q3 - q1) || ms > q3 + 1.5 * (q3 - q1);
    return b.samplesMs.map((ms, i) => ({ panel: panelOf(b), label: nameOf(b), engine: b.engine, batch: b.batchSize, t: ms / divisor, median, showMedian: shown.has(b), outlier: beyond(ms), anchor: i === 0 }));
  });
  const engines = engineOrder(run).filter((e) => view.boxes.some((b) => b.engine === e));
  const columns = Math.max(1, Math.min(MAX_COLUMNS, view.batchSizes.length));
  const width = latencyChartWidth(labels.length, columns);
  const chars = Math.max(90, Math.floor(width / SUBTITLE_CHAR_PX));
  const named = (b: LatencyBox): string => `${b.label}${b.sequenceLength === null ? '' : ` seq ${b.sequenceLength}`} at batch ${b.batchSize}`;
  const noisy = view.boxes.filter((b) => b.verdict === 'NOISY').map(named);
  const partial = view.boxes.filter((b) => b.partial !== null).map((b) => `${named(b)} (${b.partial})`);
  const subtitle = [
    ...wrap(`box: 25th–75th percentile · white line and label above: median (left out where it would overlap a neighbour's) · whiskers: 1.5 × IQR · dots: batches beyond · ${machineLine(run)}`, chars),
    ...wrap(
      `one panel per model, sequence length and batch size, each on its own log scale · ${engineScopeText(run).replace(', mean of round means', '')}, every batch of every round pooled`,
      chars,
    ),
    ...missingCells(run).flatMap((line) => wrap(`not shown, ${line}`, chars)),
    // Long lists as footnotes of at most two lines (every cell NOISY once took eight lines above the plots); on the dashboard one line.
    ...(noisy.length === 0 ? [] : noisy.length === view.boxes.length ? ['NOISY: every cell (rounds disagree or too few batches)'] : opts.lists ? packLines('NOISY: ', noisy, opts.lists.chars, opts.lists.lines) : footnote(`NOISY: ${noisy.join(', ')}`, 'the report lists them all')),
    ...(partial.length === 0 ? [] : opts.lists ? packLines('PARTIAL (part of one pass): ', partial, opts.lists.chars, opts.lists.lines) : footnote(`PARTIAL, only part of one pass (other rows than the rest): ${partial.join(', ')}`, 'the report lists them all')),
  ];
  if (view.insufficient !== null) subtitle.unshift(`nothing to draw: ${view.insufficient}`);
  return {
    ...frame(`${modelOrder(run).join(', ')} – latency distribution per engine, lower is better`, subtitle),
    data: { values },
    facet: { field: 'panel', type: 'nominal', sort: panels, title: null, header: { labelExpr: `split(datum.value, '${PANEL_BREAK}')`, labelLimit: Math.max(MIN_PANEL_PX, labels.length * PER_ENGINE_PX) + 60 } },
    columns,
    spec: {
      width: Math.max(MIN_PANEL_PX, labels.length * PER_ENGINE_PX),
      height: PANEL_HEIGHT_PX,
      encoding: {
        x: { field: 'label', type: 'nominal', title: null, sort: labels, scale: { paddingOuter: 0.5 }, axis: { labelAngle: -35, labelAlign: 'right', labelLimit: 160 } },
        y: {
          field: 't',
          type: 'quantitative',
          title: `engine time per batch (${unit}, log scale)`,
          scale: { type: 'log', nice: false, padding: Y_PADDING },
          axis: { format: '~g', tickCount: 8 },
        },
      },
      layer: [
        {
          mark: { type: 'boxplot', extent: 1.5, size: 20, median: { color: 'white', strokeWidth: 2 }, outliers: false },
          // One colour per engine, shared with the other charts; thread counts are told apart by label.
          encoding: { color: { field: 'engine', type: 'nominal', scale: colorScale(engines), legend: null } },
        },
        {
          // The batches beyond the whiskers, drawn here rather than by the boxplot: its own outlier layer was empty in a
          // panel without one, and vega logged "Infinite extent for field t" on the dashboard for each such panel.
          // Each box's first batch rides along unseen, so no panel's layer is ever empty.
          transform: [{ filter: 'datum.outlier || datum.anchor' }],
          mark: { type: 'point', size: 16 },
          encoding: { color: { field: 'engine', type: 'nominal', scale: colorScale(engines), legend: null }, opacity: { condition: { test: 'datum.outlier', value: 1 }, value: 0 } },
        },
        {
          // The median with its unit over each box, since a log axis between decades has few labels.
          // Only the medians placed without overlapping a neighbour's (shownMedians); the table has every one.
          transform: [{ filter: 'datum.showMedian' }],
          mark: { type: 'text', dy: MEDIAN_DY, fontSize: MEDIAN_FONT, color: '#333333' },
          encoding: { y: { aggregate: 'max', field: 't' }, text: { field: 'median', type: 'nominal' } },
        },
      ],
    },
    resolve: { scale: { y: 'independent' } },
  } as TopLevelSpec;
}
