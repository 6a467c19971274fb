/**
 * Vega-lite specs of a load run, drawn from the pure views in
 * load-views.ts: the hockey stick (latency against the offered rate, with
 * the latency goal, each engine's peak and each point's value) and the
 * latency CDF at every rate. Plain JSON, so `renderPng` draws them for the
 * run folder and the dashboard embeds the same specs.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { LoadCell, LoadRunRecord } from './load-results.js';
import { formatDuration, formatRate } from '../../core/units.js';
import { engineLabel, hockeyStickView, latencyCdfView, loadSettingsView } from './load-views.js';
import { frame, machineLine } from '../../../reports/view-charts.js';
import { colorScale, rampScale } from '../../../reports/engine-palette.js';
import { type Box, LABEL_FONT_SIZE, LABEL_OFFSET, labelAlign, type LabelPlace, pixelScale, placeInPlot } from '../../../reports/chart-labels.js';
import { measureDejaVu } from '../../../reports/chart-text-metrics.js';
import { footnote } from '../../../reports/chart-width.js';

const RED = '#c62828';

/** `poisson arrivals, seed 1 · batcher max 8, wait 5 ms`: what every chart of the run shares. */
function methodLine(run: LoadRunRecord): string {
  const s = loadSettingsView(run);
  const arrivals = s.arrival === 'gamma' ? `gamma arrivals (burstiness ${s.burstiness})` : `${s.arrival} arrivals`;
  const batcher = s.maxBatch > 1 ? `dynamic batcher: up to ${s.maxBatch} requests, wait ≤ ${s.maxWaitMs} ms` : 'one request per engine call';
  return `open loop, ${arrivals}, seed ${s.seed} · latency from the scheduled arrival · ${batcher}`;
}

const modelTitle = (run: LoadRunRecord): string => run.models.map((m) => m.name).join(', ');

/** `2 threads` as the engine read them back, else as asked, else `default threads`. */
function threadsText(cell: LoadCell | undefined): string {
  const read = cell && cell.state !== 'skipped' ? (cell.session?.threads ?? null) : null;
  const n = read ?? cell?.requestedThreads ?? null;
  if (n === null) return 'default threads';
  return `${n} thread${n === 1 ? '' : 's'}${read === null ? ' asked' : ''}`;
}

/** `onnx-cpu (2 threads)`: an engine's label in a chart's legend, with the threads it served on. */
function seriesOf(run: LoadRunRecord): (label: string) => string {
  return (label) => `${label} (${threadsText(run.cells.find((c) => engineLabel(run, c) === label))})`;
}

/** The hockey stick's plot, in CSS pixels, and the padding that keeps its first and last points off the axes. */
const HOCKEY = { width: 560, height: 340, xPadding: 28, yPadding: 16 } as const;

/** The value label of a hockey-stick point: its latency, `≥` for a lower bound, the peak named at the peak's point. */
function pointText(latencyMs: number, lowerBound: boolean, peakRps: number | null): string {
  const value = `${lowerBound ? '≥' : ''}${formatDuration(latencyMs)}`;
  return peakRps === null ? value : `peak ${formatRate(peakRps, '/s')}: ${value}`;
}

/**
 * The hockey stick: each engine's goal percentile (p99 without a goal)
 * against the offered load, one point per rate, log axes padded so no point
 * sits on an axis (see hockeyStickView). Flat while the engine keeps up; at
 * the knee the queue builds and latency climbs. Hollow points are not VALID
 * (overloaded or too short), triangles are lower bounds (requests
 * unfinished); the red line is the goal, a diamond marks each engine's peak
 * (its last passing rate). Each point carries its value where the label
 * overlaps nothing (chart-labels.ts); the legend names the threads.
 */
export function hockeyStickChartSpec(run: LoadRunRecord): TopLevelSpec {
  const view = hockeyStickView(run);
  const series = seriesOf(run);
  const engines = [...new Set(view.points.map((p) => series(p.engine)))];
  const p = `p${view.percentile}`;
  const peakAt = (engine: string, targetRps: number): number | null => view.peaks.find((pk) => pk.engine === engine && pk.targetRps === targetRps)?.peakRps ?? null;
  // Where vega will draw each point (same domains and padding as the scales below), so the value labels are placed in pixels.
  const x = pixelScale({ type: 'log', padding: HOCKEY.xPadding }, view.points.map((pt) => pt.targetRps), HOCKEY.width);
  const y = pixelScale({ type: 'log', padding: HOCKEY.yPadding }, [...view.points.map((pt) => pt.latencyMs), ...(view.slo ? [view.slo.limitMs] : [])], HOCKEY.height);
  const goalText = view.slo ? `goal ${p} ≤ ${view.slo.limitMs} ms` : '';
  const goalBox: Box[] = view.slo
    ? [{ x0: 4, x1: 4 + measureDejaVu(goalText, 11, false), y0: HOCKEY.height - y(view.slo.limitMs) - 16, y1: HOCKEY.height - y(view.slo.limitMs) - 2 }]
    : [];
  const peakRps = view.points.map((pt) => peakAt(pt.engine, pt.targetRps));
  const texts = view.points.map((pt, i) => pointText(pt.latencyMs, pt.lowerBound, peakRps[i] ?? null));
  const at = view.points.map((pt, i) => ({ x: x(pt.targetRps), y: HOCKEY.height - y(pt.latencyMs), text: texts[i] ?? '', radius: peakRps[i] === null ? 5 : 9 }));
  // Peaks first (their label names the peak), then from the top of the plot down.
  const rank = (i: number): number => (peakRps[i] === null ? 1 : 0) * 1e6 + (at[i]?.y ?? 0);
  const places = placeInPlot(at, HOCKEY, { obstacles: goalBox, order: at.map((_, i) => i).sort((i, j) => rank(i) - rank(j)) });
  const values = view.points.map((pt, i) => ({
    ...pt,
    series: series(pt.engine),
    valid: pt.verdict === 'VALID',
    shape: pt.lowerBound ? 'triangle-up' : 'circle',
    label: `${formatRate(pt.targetRps, '')} offered`,
    text: texts[i] ?? '',
    place: places[i] ?? 'none',
  }));
  const left = places.filter((pl) => pl === 'none').length;
  const subtitle = [
    `${methodLine(run)} · ${machineLine(run)}`,
    'filled: VALID (achieved = offered within 2%) · hollow: overloaded or too short · triangle: a lower bound (requests were unfinished when the probe stopped)',
    ...(view.slo ? [`red line: goal ${p} ≤ ${view.slo.limitMs} ms`] : []),
    ...(view.peaks.length > 0
      ? footnote(`diamond: each engine's peak, the mean of its rounds' last passing rates: ${view.peaks.map((pk) => `${pk.engine} ${formatRate(pk.peakRps, ' req/s')}`).join(', ')}`, 'the PEAK RATE table has them all')
      : []),
    `label: the ${p} at that rate${left > 0 ? `; ${left} left out where it would overlap another (the LATENCY UNDER LOAD table has every figure)` : ''}`,
  ];
  if (view.insufficient !== null) subtitle.unshift(`nothing to draw: ${view.insufficient}`);
  const scale = colorScale(engines);
  const color = { field: 'series', type: 'nominal', scale, legend: { title: 'engine (threads)', orient: 'right', labelLimit: 320 } };
  const xEnc = { field: 'targetRps', type: 'quantitative', title: 'offered load (requests/s, log scale: the rate the arrivals were drawn at)', scale: { type: 'log', nice: false, padding: HOCKEY.xPadding }, axis: { format: '~g' } };
  const yEnc = { field: 'latencyMs', type: 'quantitative', title: `${p} latency (ms, log scale), lower is better`, scale: { type: 'log', nice: false, padding: HOCKEY.yPadding }, axis: { format: '~g' } };
  // Every row in each label layer, its text empty where its label goes elsewhere: a layer filtered to no rows made vega warn
  // "Infinite extent for field targetRps" on the dashboard.
  const label = (where: Exclude<LabelPlace, 'none'>): Record<string, unknown> => ({
    mark: { type: 'text', ...LABEL_OFFSET[where], fontSize: LABEL_FONT_SIZE, baseline: 'middle', align: labelAlign(where) },
    // The same colour channel as the lines (its legend merged with theirs): a `legend: null` here conflicts and vega-lite warns.
    encoding: { x: xEnc, y: yEnc, text: { condition: { test: `datum.place == '${where}'`, field: 'text' }, value: '' }, color },
  });
  const layers: unknown[] = [
    { mark: { type: 'line', strokeWidth: 2 }, encoding: { x: xEnc, y: yEnc, color, order: { field: 'targetRps', type: 'quantitative' } } },
    {
      mark: { type: 'point', size: 70, strokeWidth: 2 },
      encoding: {
        x: xEnc, y: yEnc, color,
        shape: { field: 'shape', type: 'nominal', scale: { domain: ['circle', 'triangle-up'], range: ['circle', 'triangle-up'] }, legend: null },
        fill: { condition: { test: 'datum.valid', field: 'series', type: 'nominal', scale }, value: 'white' },
        tooltip: [{ field: 'series', title: 'engine' }, { field: 'label' }, { field: 'offeredRps', format: '.1f' }, { field: 'achievedRps', format: '.1f' }, { field: 'latencyMs', format: '.2f' }, { field: 'verdict' }],
      },
    },
    ...(['above', 'below', 'right', 'left'] as const).map(label),
  ];
  if (view.slo) {
    layers.push(
      { data: { values: [{ limit: view.slo.limitMs }] }, mark: { type: 'rule', color: RED, strokeWidth: 2 }, encoding: { y: { field: 'limit', type: 'quantitative' } } },
      { data: { values: [{ limit: view.slo.limitMs, text: goalText }] }, mark: { type: 'text', color: RED, align: 'left', baseline: 'middle', dy: -9, x: 4, fontSize: 11 }, encoding: { y: { field: 'limit', type: 'quantitative' }, text: { field: 'text' } } },
    );
  }
  if (view.peaks.length > 0) {
    const peaks = view.peaks.map((pk) => ({ ...pk, series: series(pk.engine) }));
    const at = { x: { field: 'targetRps', type: 'quantitative' }, y: { field: 'latencyMs', type: 'quantitative' } };
    layers.push({ data: { values: peaks }, mark: { type: 'point', shape: 'diamond', size: 260, filled: false, strokeWidth: 2.5 }, encoding: { ...at, color } });
  }
  return { ...frame(`${modelTitle(run)} – latency under load: ${p} against offered load`, subtitle), data: { values }, width: HOCKEY.width, height: HOCKEY.height, layer: layers } as unknown as TopLevelSpec;
}

const NOT_VALID = 'not VALID (overloaded or too short)';

/**
 * The share of requests at or under each latency, one panel per engine
 * (named with its threads), one line per offered rate in shades of the
 * engine's colour (darker: more load), dashed where the rate was not VALID;
 * the goal as red rules (see latencyCdfView).
 */
export function latencyCdfChartSpec(run: LoadRunRecord): TopLevelSpec {
  const view = latencyCdfView(run);
  const slo = loadSettingsView(run).slo;
  const series = seriesOf(run);
  const nameOf = (s: (typeof view.series)[number]): string => `${s.engine} @ ${formatRate(s.targetRps, '/s')}`;
  const values = view.series.flatMap((s) =>
    s.points.map((pt) => ({ panel: series(s.engine), series: nameOf(s), verdict: s.verdict === 'VALID' ? 'VALID' : NOT_VALID, latencyMs: pt.latencyMs, share: pt.share })),
  );
  const labels = view.series.map(nameOf);
  const panels = [...new Set(view.series.map((s) => series(s.engine)))];
  const subtitle = [
    `every measured request of every round, unfinished ones at their lower bound · one line per offered rate, darker: more load · dashed: not VALID · ${methodLine(run)}`,
    machineLine(run),
    ...(slo ? [`red: goal p${slo.percentile} ≤ ${slo.limitMs} ms`] : []),
  ];
  if (view.insufficient !== null) subtitle.unshift(`nothing to draw: ${view.insufficient}`);
  const layers: unknown[] = [
    {
      mark: { type: 'line', interpolate: 'step-after', strokeWidth: 2 },
      encoding: {
        x: { field: 'latencyMs', type: 'quantitative', title: 'request latency (ms, log scale)', scale: { type: 'log', nice: false }, axis: { format: '~g' } },
        y: { field: 'share', type: 'quantitative', title: 'share of requests at or under', scale: { domain: [0, 1] }, axis: { format: '%' } },
        color: { field: 'series', type: 'nominal', scale: rampScale(labels), legend: { title: 'engine @ offered rate', orient: 'right', labelLimit: 320 } },
        strokeDash: { field: 'verdict', type: 'nominal', scale: { domain: ['VALID', NOT_VALID], range: [[1, 0], [5, 3]] }, legend: { title: 'verdict', orient: 'right', symbolStrokeColor: '#555555', labelLimit: 320 } },
      },
    },
  ];
  if (slo) {
    // datum rules, not data layers: they repeat in every panel of the facet.
    layers.push(
      { mark: { type: 'rule', color: RED, strokeDash: [4, 3] }, encoding: { x: { datum: slo.limitMs, type: 'quantitative' } } },
      { mark: { type: 'rule', color: RED, strokeDash: [4, 3] }, encoding: { y: { datum: slo.percentile / 100, type: 'quantitative' } } },
    );
  }
  return {
    ...frame(`${modelTitle(run)} – latency CDF ${view.rateText}`, subtitle),
    data: { values },
    facet: { row: { field: 'panel', type: 'nominal', sort: panels, title: null, header: { labelAngle: 0, labelAnchor: 'start', labelOrient: 'top', labelLimit: 0 } } },
    spec: { width: 520, height: panels.length > 1 ? 200 : 300, layer: layers },
  } as unknown as TopLevelSpec;
}
