/**
 * Vega-lite specs of a load run, drawn from the pure views in
 * load-views.ts: the hockey stick (latency against achieved throughput,
 * with the latency goal and each engine's peak) and the latency CDF at one
 * rate. Plain JSON, so `renderPng` draws them for the run folder and the
 * dashboard embeds the same specs.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { LoadRunRecord } from '../../src/core/load-results.js';
import { formatRate } from '../../src/core/units.js';
import { hockeyStickView, latencyCdfView, loadSettingsView } from './load-views.js';
import { frame, machineLine } from '../view-charts.js';
import { colorScale } from '../engine-palette.js';

const RED = '#c62828';

/** `poisson arrivals, seed 1 · batcher max 8, wait 5 ms`: what every chart of the run shares. */
function methodLine(run: LoadRunRecord): string {
  const s = loadSettingsView(run);
  const arrivals = s.arrival === 'gamma' ? `gamma arrivals (burstiness ${s.burstiness})` : `${s.arrival} arrivals`;
  const batcher = s.maxBatch > 1 ? `dynamic batcher: up to ${s.maxBatch} requests, wait ≤ ${s.maxWaitMs} ms` : 'one request per engine call';
  return `open loop, ${arrivals}, seed ${s.seed} · latency from the scheduled arrival · ${batcher}`;
}

const modelTitle = (run: LoadRunRecord): string => run.models.map((m) => m.name).join(', ');

/**
 * The hockey stick: each engine's goal percentile (p99 without a goal)
 * against the offered load, one point per rate, log latency axis (see
 * hockeyStickView). Flat while the engine keeps up; at the knee the queue
 * builds and latency climbs. Hollow points are not VALID (overloaded or
 * too short), triangles are lower bounds (requests unfinished); the red
 * line is the goal, a diamond marks each engine's peak (its last passing rate).
 */
export function hockeyStickChartSpec(run: LoadRunRecord): TopLevelSpec {
  const view = hockeyStickView(run);
  const engines = [...new Set(view.points.map((p) => p.engine))];
  const p = `p${view.percentile}`;
  const values = view.points.map((pt) => ({ ...pt, valid: pt.verdict === 'VALID', shape: pt.lowerBound ? 'triangle-up' : 'circle', label: `${formatRate(pt.targetRps, '')} offered` }));
  const subtitle = [
    `${methodLine(run)} · ${machineLine(run)}`,
    'filled: VALID (achieved = offered within 2%) · hollow: overloaded or too short · triangle: a lower bound (requests were unfinished when the probe stopped)',
    ...(view.slo ? [`red line: goal ${p} ≤ ${view.slo.limitMs} ms`] : []),
    ...view.peaks.map((pk) => `${pk.engine}: peak ${formatRate(pk.peakRps, ' req/s')} (diamond: the last passing rate)`),
  ];
  if (view.insufficient !== null) subtitle.unshift(`nothing to draw: ${view.insufficient}`);
  const color = { field: 'engine', type: 'nominal', scale: colorScale(engines), legend: { title: 'engine', orient: 'right' } };
  const x = { field: 'targetRps', type: 'quantitative', title: 'offered load (requests/s, log scale: the rate the arrivals were drawn at)', scale: { type: 'log', nice: false }, axis: { format: '~g' } };
  const y = { field: 'latencyMs', type: 'quantitative', title: `${p} latency (ms, log scale), lower is better`, scale: { type: 'log', nice: false, padding: 12 }, axis: { format: '~g' } };
  const layers: unknown[] = [
    { mark: { type: 'line', strokeWidth: 2 }, encoding: { x, y, color, order: { field: 'targetRps', type: 'quantitative' } } },
    {
      mark: { type: 'point', size: 70, strokeWidth: 2 },
      encoding: {
        x, y, color,
        shape: { field: 'shape', type: 'nominal', scale: { domain: ['circle', 'triangle-up'], range: ['circle', 'triangle-up'] }, legend: null },
        fill: { condition: { test: 'datum.valid', field: 'engine', type: 'nominal', scale: colorScale(engines) }, value: 'white' },
        tooltip: [{ field: 'engine' }, { field: 'label' }, { field: 'offeredRps', format: '.1f' }, { field: 'achievedRps', format: '.1f' }, { field: 'latencyMs', format: '.2f' }, { field: 'verdict' }],
      },
    },
  ];
  if (view.slo) {
    layers.push(
      { data: { values: [{ limit: view.slo.limitMs }] }, mark: { type: 'rule', color: RED, strokeWidth: 2 }, encoding: { y: { field: 'limit', type: 'quantitative' } } },
      { data: { values: [{ limit: view.slo.limitMs, text: `goal ${p} ≤ ${view.slo.limitMs} ms` }] }, mark: { type: 'text', color: RED, align: 'left', dy: -7, x: 4, fontSize: 11 }, encoding: { y: { field: 'limit', type: 'quantitative' }, text: { field: 'text' } } },
    );
  }
  if (view.peaks.length > 0) {
    const peaks = view.peaks.map((pk) => ({ ...pk, text: `peak ${formatRate(pk.peakRps, '/s')}` }));
    const at = { x: { field: 'targetRps', type: 'quantitative' }, y: { field: 'latencyMs', type: 'quantitative' } };
    layers.push(
      { data: { values: peaks }, mark: { type: 'point', shape: 'diamond', size: 260, filled: false, strokeWidth: 2.5 }, encoding: { ...at, color } },
      { data: { values: peaks }, mark: { type: 'text', align: 'left', dx: 10, dy: -10, fontSize: 11, fontWeight: 'bold' }, encoding: { ...at, text: { field: 'text' }, color } },
    );
  }
  return { ...frame(`${modelTitle(run)} – latency under load: ${p} against offered load`, subtitle), data: { values }, width: 560, height: 340, layer: layers } as unknown as TopLevelSpec;
}

/** The share of requests at or under each latency, per engine at one rate (see latencyCdfView), with the goal. */
export function latencyCdfChartSpec(run: LoadRunRecord): TopLevelSpec {
  const view = latencyCdfView(run);
  const slo = loadSettingsView(run).slo;
  const values = view.series.flatMap((s) => s.points.map((pt) => ({ engine: `${s.engine} @ ${formatRate(s.targetRps, '/s')}`, latencyMs: pt.latencyMs, share: pt.share })));
  const labels = view.series.map((s) => `${s.engine} @ ${formatRate(s.targetRps, '/s')}`);
  const subtitle = [
    `every measured request, unfinished ones at their lower bound · ${methodLine(run)}`,
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
        color: { field: 'engine', type: 'nominal', scale: colorScale(labels), legend: { title: 'engine @ rate', orient: 'right' } },
      },
    },
  ];
  if (slo) {
    layers.push(
      { data: { values: [{ limit: slo.limitMs }] }, mark: { type: 'rule', color: RED, strokeDash: [4, 3] }, encoding: { x: { field: 'limit', type: 'quantitative' } } },
      { data: { values: [{ share: slo.percentile / 100 }] }, mark: { type: 'rule', color: RED, strokeDash: [4, 3] }, encoding: { y: { field: 'share', type: 'quantitative' } } },
    );
  }
  return {
    ...frame(`${modelTitle(run)} – latency CDF ${view.rateText}`, subtitle),
    data: { values },
    width: 520,
    height: 320,
    layer: layers,
  } as unknown as TopLevelSpec;
}
