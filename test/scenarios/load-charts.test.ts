/**
 * Issue 47, point 4, the load charts: latency-cdf.png draws every offered
 * rate of every engine (it drew one rate of two); the hockey stick keeps its
 * first point off the y axis, carries value labels and names each engine's
 * threads; each engine keeps its palette colour, its rates in shades of it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hockeyStickChartSpec, latencyCdfChartSpec } from '../../src/scenarios/load/load-charts.js';
import { ENGINE_COLORS, engineOfLabel } from '../../reports/engine-palette.js';
import { pixelScale } from '../../reports/chart-labels.js';
import { buildLoadRun } from '../helpers/load-run-record.js';

const RUN = buildLoadRun({ engines: ['onnx-cpu', 'onnx-wasm'], rates: [50, 200, 400], serviceMs: { 'onnx-cpu': 1, 'onnx-wasm': 3 }, threads: 2, slo: { percentile: 99, limitMs: 20 }, findPeak: true });

type Json = Record<string, unknown>;
const dataOf = (spec: unknown): Json[] => ((spec as { data: { values: Json[] } }).data.values);

/** Every colour scale in a spec, label → colour. */
function colours(spec: unknown, into = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(spec)) for (const item of spec) colours(item, into);
  else if (typeof spec === 'object' && spec !== null) {
    const scale = ((spec as Json)['color'] as { scale?: { domain?: unknown[]; range?: unknown[] } } | undefined)?.scale;
    if (scale?.domain && scale.range) scale.domain.forEach((d, i) => into.set(String(d), String(scale.range?.[i])));
    for (const v of Object.values(spec as Json)) colours(v, into);
  }
  return into;
}

test('latency-cdf draws every engine at every offered rate, dashed where not VALID, each engine in shades of its own colour', () => {
  const spec = latencyCdfChartSpec(RUN);
  const series = new Set(dataOf(spec).map((v) => String(v['series'])));
  assert.deepEqual([...series].sort(), ['onnx-cpu @ 200/s', 'onnx-cpu @ 400/s', 'onnx-cpu @ 50.0/s', 'onnx-wasm @ 200/s', 'onnx-wasm @ 400/s', 'onnx-wasm @ 50.0/s']);
  assert.match(JSON.stringify(spec), /latency CDF at each offered rate \(3 rates\)/u);
  const panels = new Set(dataOf(spec).map((v) => String(v['panel'])));
  assert.deepEqual([...panels], ['onnx-cpu (2 threads)', 'onnx-wasm (2 threads)'], 'one panel per engine, named with its threads');
  // onnx-wasm at 3 ms a request cannot serve 400/s: its line is dashed, with a legend entry saying why.
  assert.ok(dataOf(spec).some((v) => v['series'] === 'onnx-wasm @ 400/s' && v['verdict'] !== 'VALID'));
  assert.match(JSON.stringify(spec), /"strokeDash":\{"field":"verdict"/u);
  const map = colours(spec);
  assert.equal(new Set([...map.values()]).size, 6, 'each rate its own shade');
  for (const [label, colour] of map) {
    const engine = engineOfLabel(label);
    assert.notEqual(colour, ENGINE_COLORS[engine === 'onnx-cpu' ? 'onnx-wasm' : 'onnx-cpu'], `${label} never takes the other engine's colour`);
  }
});

test('hockey stick: the first point off the y axis, a value label per point where it fits, the peak named, the threads in the legend', () => {
  const spec = hockeyStickChartSpec(RUN);
  const values = dataOf(spec);
  const text = JSON.stringify(spec);
  // The x scale is padded, and the padding is what vega draws the lowest rate at.
  assert.match(text, /"field":"targetRps","type":"quantitative","title":"offered load[^}]*"scale":\{"type":"log","nice":false,"padding":28\}/u);
  assert.ok(pixelScale({ type: 'log', padding: 28 }, [50, 200, 400], 560)(50) >= 20, 'the first point is 28 px from the y axis');
  assert.equal(values.length, 6);
  assert.ok(values.filter((v) => v['place'] !== 'none').length >= 4, 'most points carry their value');
  assert.ok(values.every((v) => typeof v['text'] === 'string' && /\d/u.test(String(v['text']))));
  assert.ok(values.some((v) => /^peak 200\/s: /u.test(String(v['text']))), 'the peak point names the peak');
  assert.deepEqual([...new Set(values.map((v) => v['series']))], ['onnx-cpu (2 threads)', 'onnx-wasm (2 threads)']);
  const map = colours(spec);
  assert.equal(map.get('onnx-cpu (2 threads)'), ENGINE_COLORS['onnx-cpu']);
  assert.equal(map.get('onnx-wasm (2 threads)'), ENGINE_COLORS['onnx-wasm']);
});
