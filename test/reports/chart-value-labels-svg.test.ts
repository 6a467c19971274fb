/**
 * Issue 47, point 4: value labels never overlap one another or an axis, in
 * every PNG chart, read off what vega really draws. Each crowded chart
 * (engines with near-equal figures, a hockey stick of six engines) is drawn
 * to SVG; every text of a chart's own marks (value labels, captions, not
 * axis, legend or title text) becomes a box from its position, anchor,
 * baseline and its width in the chart font; no two boxes of one plot may
 * intersect, and none may cross the plot's left (y) or bottom (x) axis.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TopLevelSpec } from 'vega-lite';
import type { CompletedCell } from '../../src/core/results.js';
import { renderSvg } from '../../reports/png-chart.js';
import { measureDejaVu } from '../../reports/chart-text-metrics.js';
import { intersects, type Box } from '../../reports/chart-labels.js';
import { batchScalingChartSpec, coreScalingChartSpec } from '../../reports/view-charts.js';
import { comparisonChartSpec } from '../../reports/chart-spec.js';
import { latencyDistributionChartSpec } from '../../reports/latency-chart.js';
import { hockeyStickChartSpec } from '../../src/scenarios/load/load-charts.js';
import { cellFromRounds, runOf } from '../helpers/round-cells.js';
import { buildWideSweep } from '../helpers/wide-sweep.js';
import { buildLoadRun } from '../helpers/load-run-record.js';
import { timeBreakdownSpec } from '../../reports/profile-files.js';
import { quantizationChartSpec } from '../../reports/quantization-chart.js';
import { profiledRun } from '../helpers/profile-traces.js';

interface Plot { readonly x: number; readonly y: number; readonly width: number; readonly height: number }
interface Label { readonly text: string; readonly box: Box; readonly plot: Plot | null }

const decode = (s: string): string => s.replace(/&lt;/gu, '<').replace(/&gt;/gu, '>').replace(/&quot;/gu, '"').replace(/&#x27;|&#39;/gu, "'").replace(/&amp;/gu, '&');

/** Every text drawn by a chart's marks, as a box in the SVG's coordinates, with the plot it sits in. */
function markLabels(svg: string): Label[] {
  const labels: Label[] = [];
  // One frame per open <g>: its offset, whether it is a text mark, and the plot its background path gives (a group's own rectangle).
  const stack: { x: number; y: number; textMark: boolean; plot: Plot | null }[] = [{ x: 0, y: 0, textMark: false, plot: null }];
  const top = () => stack[stack.length - 1] as (typeof stack)[number];
  const tags = /<(\/?)(g|text|path)\b([^>]*)>(?:([^<]*)<\/text>)?/gu;
  for (const m of svg.matchAll(tags)) {
    const [, close, tag, attrs = '', content] = m;
    if (tag === 'g' && close === '/') {
      stack.pop();
      continue;
    }
    const t = /transform="translate\(([-\d.e]+),\s*([-\d.e]+)\)/u.exec(attrs);
    const dx = t ? Number(t[1]) : 0;
    const dy = t ? Number(t[2]) : 0;
    if (tag === 'g') {
      const cls = /class="([^"]*)"/u.exec(attrs)?.[1] ?? '';
      stack.push({ x: top().x + dx, y: top().y + dy, textMark: cls.includes('mark-text') && cls.includes('role-mark'), plot: top().plot });
    } else if (tag === 'path' && /class="background"/u.test(attrs)) {
      const d = /d="M[\d.]+,[\d.]+h([\d.]+)v([\d.]+)h/u.exec(attrs);
      if (d && Number(d[1]) > 0 && Number(d[2]) > 0) top().plot = { x: top().x, y: top().y, width: Number(d[1]), height: Number(d[2]) };
    } else if (tag === 'text' && top().textMark && content !== undefined && content.trim() !== '') {
      const text = decode(content);
      const size = Number(/font-size="([\d.]+)px"/u.exec(attrs)?.[1] ?? 11);
      const bold = /font-weight="bold"/u.test(attrs);
      const width = measureDejaVu(text, size, bold);
      const anchor = /text-anchor="(\w+)"/u.exec(attrs)?.[1] ?? 'start';
      const u0 = anchor === 'middle' ? -width / 2 : anchor === 'end' ? -width : 0;
      // Glyphs from 0.8 em above the baseline to 0.2 em below it.
      const [v0, v1] = [-0.8 * size, 0.2 * size];
      const rotated = /rotate\((-?[\d.]+)\)/u.exec(attrs);
      const inner = /rotate\([^)]*\)\s*translate\(([-\d.e]+),\s*([-\d.e]+)\)/u.exec(attrs);
      const [ix, iy] = inner ? [Number(inner[1]), Number(inner[2])] : [0, 0];
      const x = top().x + dx;
      const y = top().y + dy;
      let box: Box;
      if (rotated && Number(rotated[1]) % 360 !== 0) {
        // rotate(270) (or -90): a local (u, v) is drawn at (v, −u).
        assert.ok([270, -90].includes(Number(rotated[1])), `an angle this test reads: ${rotated[1]}`);
        box = { x0: x + iy + v0, x1: x + iy + v1, y0: y - (ix + u0 + width), y1: y - (ix + u0) };
      } else box = { x0: x + u0, x1: x + u0 + width, y0: y + v0, y1: y + v1 };
      labels.push({ text, box, plot: top().plot });
    }
  }
  return labels;
}

/** Asserts that no two mark texts overlap and none crosses its plot's y axis (left) or x axis (bottom); returns how many there are. */
function check(name: string, svg: string): number {
  const labels = markLabels(svg);
  // Shrunk by half a pixel: touching is not overlapping.
  const shrink = (x: Box): Box => ({ x0: x.x0 + 0.5, y0: x.y0 + 0.5, x1: x.x1 - 0.5, y1: x.y1 - 0.5 });
  for (const [i, a] of labels.entries()) {
    for (const b of labels.slice(i + 1)) assert.ok(!intersects(shrink(a.box), shrink(b.box)), `${name}: "${a.text}" overlaps "${b.text}"`);
    const p = a.plot;
    assert.ok(p !== null, `${name}: "${a.text}" is in a plot`);
    assert.ok(a.box.x0 >= p.x - 0.5, `${name}: "${a.text}" crosses the y axis`);
    assert.ok(a.box.y1 <= p.y + p.height + 0.5, `${name}: "${a.text}" crosses the x axis`);
  }
  return labels.length;
}

/** Eight engines within 6% of each other at four batch sizes: every label wants the same place. */
function closeRun() {
  const engines = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-node', 'transformers-js', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model'];
  const cells: CompletedCell[] = engines.flatMap((engine, e) =>
    [1, 4, 16, 64].map((batchSize) => cellFromRounds({ model: 'tiny-bert', engine, batchSize, rows: 64, rounds: [0.97, 1, 1.03].map((f) => ({ passes: 1, meanMs: (1 + e * 0.008) * batchSize * f })) })),
  );
  return runOf(cells);
}

/** fp32 and q8 of three engines, q8 1.6 points less accurate on tfjs-wasm: its label hangs under the lowest bar, toward the x axis. */
function quantizedRun() {
  const run = buildWideSweep({ models: ['tiny-bert'], variants: true, accuracy: 0.9, engines: ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm'], batchSizes: [1, 8], sequenceLengths: [8] });
  return { ...run, cells: run.cells.map((c) => (c.model.endsWith('q8') ? { ...c, accuracy: c.engine === 'tfjs-wasm' ? 0.884 : 0.896 } : c)) };
}

/** Six engines within 5% of each other at 1, 2 and 4 threads. */
function coreRun() {
  const engines = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-node', 'transformers-js'];
  return runOf(engines.flatMap((engine, e) => [1, 2, 4].map((threads) => cellFromRounds({ model: 'tiny-bert', engine, batchSize: 8, rows: 64, requestedThreads: threads, threads, rounds: [0.9, 1, 1.1].map((f) => ({ passes: 1, meanMs: ((8 + e * 0.05) / threads) * f })) }))));
}

test('no value label overlaps another in any crowded PNG chart, nor crosses the y axis', async () => {
  const wide = buildWideSweep({ models: ['tiny-bert'], engines: ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-node', 'tfjs-node-saved-model', 'tfjs-node-graph-model', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model', 'transformers-js'], batchSizes: [1, 8, 32], sequenceLengths: [8] });
  const close = closeRun();
  const load = buildLoadRun({ engines: ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'transformers-js', 'tfjs-node'], rates: [20, 40, 80, 160, 320], serviceMs: { 'onnx-cpu': 1, 'onnx-wasm': 1.1, 'tfjs-wasm': 1.2, 'tfjs-cpu': 4, 'transformers-js': 1.05, 'tfjs-node': 1.15 }, slo: { percentile: 99, limitMs: 10 }, findPeak: true });
  const charts: [string, TopLevelSpec][] = [
    ['batch-scaling (close)', batchScalingChartSpec(close)],
    ['batch-scaling (wide)', batchScalingChartSpec(wide)],
    ['comparison (wide)', comparisonChartSpec(wide)],
    ['latency-distribution (close)', latencyDistributionChartSpec(close)],
    ['latency-distribution (wide)', latencyDistributionChartSpec(wide)],
    ['hockey-stick', hockeyStickChartSpec(load)],
    ['core-scaling (close)', coreScalingChartSpec(coreRun())],
    ['time-breakdown', timeBreakdownSpec(profiledRun())],
    ['quantization', quantizationChartSpec(quantizedRun())],
  ];
  for (const [name, spec] of charts) {
    const svg = await renderSvg(spec);
    assert.ok(check(name, svg) > 0, `${name} draws value labels`);
    // The NOISY rings are drawn, in black, beside the labels they must not crowd out.
    if (name.startsWith('batch-scaling')) assert.match(svg, /aria-roledescription="point"[^>]*stroke="#000000"/u, `${name}: NOISY rings drawn`);
  }
  // The crowded scaling chart still labels some points and leaves some out.
  const values = (batchScalingChartSpec(close) as unknown as { data: { values: { ratePlace: string }[] } }).data.values;
  assert.ok(values.some((v) => v.ratePlace !== 'none') && values.some((v) => v.ratePlace === 'none'));
});

test('the check itself sees an overlap: two labels on one spot, and one left of the y axis', async () => {
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values: [{ x: 1, y: 1, t: '1.33k/s' }, { x: 1, y: 1.02, t: '1.17k/s' }] },
    width: 200,
    height: 100,
    layer: [{ mark: 'point', encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } } }, { mark: { type: 'text', fontSize: 10 }, encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' }, text: { field: 't' } } }],
  } as unknown as TopLevelSpec;
  const svg = await renderSvg(spec);
  assert.throws(() => check('overlapping', svg), /"1\.33k\/s" overlaps "1\.17k\/s"/u);
  const left = { ...spec, data: { values: [{ x: 0, y: 1, t: 'a long label at x = 0' }, { x: 10, y: 0, t: '' }] } } as unknown as TopLevelSpec;
  const leftSvg = await renderSvg(left);
  assert.throws(() => check('at the axis', leftSvg), /crosses the y axis/u);
});
