import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparisonChartSpec } from '../../reports/chart-spec.js';
import { renderPng, renderSvg } from '../../reports/png-chart.js';
import { MODEL_NAME, buildSampleRun } from '../helpers/sample-run.js';

test('comparison chart renders to a PNG whose SVG names every completed engine and the title', async () => {
  const run = buildSampleRun();
  const spec = comparisonChartSpec(run);
  const png = await renderPng(spec);
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.ok(png.length > 10_000, 'a real picture, not an empty canvas');

  const svg = await renderSvg(spec);
  for (const engine of ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu']) assert.ok(svg.includes(engine), engine);
  // The title wraps to the plot's width (chart-width.ts): its words, read across its lines.
  const texts = svg.replace(/<[^>]+>/gu, ' ').replace(/\s+/gu, ' ');
  assert.ok(texts.includes(`${MODEL_NAME} – time to stream every row once, per engine and batch`) && texts.includes('size, lower is better'), texts);
  assert.ok(svg.includes('errored: onnx-wasm (batch 32)'));
  assert.ok(svg.includes('skipped: tfjs-cpu (batch 32)'));
  assert.ok(svg.includes('time of one pass (ms), lower is better'));
  assert.ok(svg.includes('DejaVu Sans'));
});
