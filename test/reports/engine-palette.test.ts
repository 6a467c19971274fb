/**
 * Issue 47, point 3: one colour per engine, everywhere. Two runs with
 * different engine sets (in a different order) give each engine the same
 * colour in every PNG spec and in every dashboard view (the specs the
 * dashboard's views route returns); a thread variant of an engine is a
 * shade of its colour, never another engine's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord } from '../../src/core/results.js';
import { comparisonChartSpec } from '../../reports/chart-spec.js';
import { batchScalingChartSpec } from '../../reports/view-charts.js';
import { latencyDistributionChartSpec } from '../../reports/latency-chart.js';
import { colorScale, ENGINE_COLORS, engineOfLabel } from '../../reports/engine-palette.js';
import { scenarioOfRecord } from '../../src/scenarios/scenario-registry.js';
import '../../src/runs/builtin-scenarios.js';
import { buildWideSweep } from '../helpers/wide-sweep.js';
import { buildLoadRun } from '../helpers/load-run-record.js';
import { hockeyStickChartSpec, latencyCdfChartSpec } from '../../src/scenarios/load/load-charts.js';

/** Every colour scale with a domain and a range anywhere in a spec, as label → colour. */
function colours(spec: unknown, into = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(spec)) for (const item of spec) colours(item, into);
  else if (typeof spec === 'object' && spec !== null) {
    const o = spec as Record<string, unknown>;
    const scale = (o['color'] as { scale?: { domain?: unknown; range?: unknown } } | undefined)?.scale;
    if (scale && Array.isArray(scale.domain) && Array.isArray(scale.range)) scale.domain.forEach((d, i) => into.set(String(d), String((scale.range as unknown[])[i])));
    for (const v of Object.values(o)) colours(v, into);
  }
  return into;
}

function run(engines: readonly string[]): RunRecord {
  return buildWideSweep({ models: ['m'], engines, batchSizes: [1, 8], sequenceLengths: [8] });
}

function everySpec(r: RunRecord): Map<string, string>[] {
  const dashboard = scenarioOfRecord(r).views(r, new URLSearchParams());
  return [comparisonChartSpec(r), batchScalingChartSpec(r), latencyDistributionChartSpec(r), dashboard].map((s) => colours(s));
}

test('each engine has the same colour in both runs, in every PNG spec and every dashboard view', () => {
  const a = run(['onnx-cpu', 'onnx-wasm', 'tfjs-wasm']);
  const b = run(['transformers-js', 'tfjs-wasm', 'tfjs-cpu', 'onnx-cpu']);
  const maps = [...everySpec(a), ...everySpec(b)];
  for (const engine of ['onnx-cpu', 'tfjs-wasm']) {
    const seen = new Set(maps.flatMap((m) => (m.has(engine) ? [m.get(engine)] : [])));
    assert.equal(seen.size, 1, `${engine}: ${[...seen].join(', ')}`);
    assert.deepEqual([...seen], [ENGINE_COLORS[engine]], `${engine} takes its colour from the frozen table`);
  }
  assert.ok(maps.filter((m) => m.has('onnx-cpu')).length >= 6, 'every spec colours onnx-cpu');
  const all = new Map<string, string>();
  for (const m of maps) for (const [k, v] of m) all.set(k, v);
  const byColour = new Map<string, string[]>();
  for (const [k, v] of all) byColour.set(v, [...(byColour.get(v) ?? []), k]);
  for (const [colour, labels] of byColour) assert.equal(new Set(labels.map(engineOfLabel)).size, 1, `${colour} is one engine's: ${labels.join(', ')}`);
});

test('a variant of an engine is a shade of its colour, never another engine\'s', () => {
  const scale = colorScale(['onnx-cpu (1 thread)', 'onnx-cpu (2 threads)', 'tfjs-wasm-graph-model', 'tfjs-wasm']);
  assert.equal(scale.range[0], ENGINE_COLORS['onnx-cpu']);
  assert.notEqual(scale.range[1], scale.range[0], 'the second thread count is another shade');
  assert.equal(scale.range[2], ENGINE_COLORS['tfjs-wasm-graph-model'], 'the longest engine id wins');
  assert.equal(scale.range[3], ENGINE_COLORS['tfjs-wasm']);
  assert.equal(new Set(Object.values(ENGINE_COLORS)).size, Object.keys(ENGINE_COLORS).length, 'no two engines share a colour');
  assert.ok(!(scale.range[1] ?? '').startsWith('#ff7f0e'), 'not tfjs-wasm\'s orange');
});

test('two load runs with different engines: each engine has the same colour in both, in hockey-stick.png, latency-cdf.png and the dashboard', () => {
  const shape = { rates: [20, 80, 320], threads: 2, slo: { percentile: 99, limitMs: 10 }, findPeak: true };
  const a = buildLoadRun({ ...shape, engines: ['onnx-cpu', 'onnx-wasm'] });
  const b = buildLoadRun({ ...shape, engines: ['transformers-js', 'tfjs-wasm', 'onnx-cpu'] });
  const maps = [a, b].flatMap((r) => [hockeyStickChartSpec(r), latencyCdfChartSpec(r), scenarioOfRecord(r).views(r, new URLSearchParams())].map((s) => colours(s)));
  assert.equal(maps[0]?.get('onnx-cpu (2 threads)'), ENGINE_COLORS['onnx-cpu'], 'the hockey stick draws an engine in its own colour');
  const all = new Map<string, Set<string>>();
  for (const m of maps) for (const [k, v] of m) all.set(k, new Set([...(all.get(k) ?? []), v]));
  for (const [label, seen] of all) assert.equal(seen.size, 1, `${label}: ${[...seen].join(', ')}`);
  assert.ok(maps.filter((m) => m.has('onnx-cpu @ 80.0/s')).length >= 4, 'both runs\' CDF, in the PNG spec and the dashboard');
  const byColour = new Map<string, string[]>();
  for (const [k, v] of all) for (const c of v) byColour.set(c, [...(byColour.get(c) ?? []), k]);
  for (const [colour, labels] of byColour) assert.equal(new Set(labels.map(engineOfLabel)).size, 1, `${colour} is one engine's: ${labels.join(', ')}`);
});
