import { test } from 'node:test';
import assert from 'node:assert/strict';
import { latencyDistributionChartSpec } from '../../reports/latency-chart.js';
import { renderPng } from '../../reports/png-chart.js';
import { buildWideSweep } from '../helpers/wide-sweep.js';

const ENGINES = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'transformers-js'];

/** Width in pixels from a PNG's IHDR chunk. */
function pngWidth(png: Uint8Array): number {
  return Buffer.from(png).readUInt32BE(16);
}

test('latency-distribution.png stays within 3,000 px wide for 5 engines × 3 batch sizes × 2 lengths, with lengths apart, a wrapped subtitle and units on the medians', async () => {
  const run = buildWideSweep({ models: ['tiny-bert (embedded default)'], engines: ENGINES, batchSizes: [1, 8, 32], sequenceLengths: [8, 128] });
  const spec = latencyDistributionChartSpec(run) as unknown as { title: { subtitle: string[] }; data: { values: { panel: string; median: string }[] } };
  const png = await renderPng(spec as never);
  assert.ok(pngWidth(png) <= 3000, `latency-distribution.png is ${pngWidth(png)} px wide`);
  // Each sequence length has its own boxes: no panel pools two lengths.
  const panels = new Set(spec.data.values.map((v) => v.panel));
  assert.equal(panels.size, 6, [...panels].join(' | '));
  for (const p of panels) assert.match(p, /\bseq (8|128) · batch (1|8|32)$/u);
  // Every cell is NOISY: one line says so, never a list thousands of pixels long (or, wrapped, eight lines over the plots).
  const noisy = spec.title.subtitle.filter((l) => l.includes('NOISY') || l.includes('at batch'));
  assert.deepEqual(noisy, ['NOISY: every cell (rounds disagree or too few batches)']);
  const longest = Math.max(...spec.title.subtitle.map((l) => l.length));
  assert.ok(longest * 6.2 * 2 <= pngWidth(png) + 200, `longest subtitle line (${longest} characters) fits the picture`);
  for (const v of spec.data.values) assert.match(v.median, /^[\d.,]+ (ns|µs|ms|s)$/u, 'median labels carry a unit');

  // With several models and precisions the picture grows downwards, not across.
  const wide = buildWideSweep({ models: ['tiny-bert (embedded default)', 'mini'], variants: true, engines: ENGINES, batchSizes: [1, 8, 32], sequenceLengths: [8, 128] });
  assert.ok(pngWidth(await renderPng(latencyDistributionChartSpec(wide))) <= 3000);
});

test('with one model the title names it and each panel header says only its batch (and length), so no header is cut', () => {
  const run = buildWideSweep({ models: ['tiny-bert (embedded default)'], engines: ENGINES.slice(0, 4), batchSizes: [1, 8], sequenceLengths: [8] });
  const spec = latencyDistributionChartSpec(run) as unknown as { title: { text: string }; data: { values: { panel: string }[] } };
  assert.deepEqual([...new Set(spec.data.values.map((v) => v.panel))], ['seq 8 · batch 1', 'seq 8 · batch 8']);
  assert.match(JSON.stringify(spec.title), /tiny-bert \(embedded default\) – latency distribution/u);
});
