/**
 * Issue 47, point 4: every PNG at most 1,600 px wide (a subtitle listing
 * the threads read back once made comparison.png 3,204 px), comparison.png
 * on a log axis named as such when its bars span more than 10×, and a
 * NOISY cell outlined on its bar with one legend entry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparisonChartSpec } from '../../reports/chart-spec.js';
import { batchScalingChartSpec } from '../../reports/view-charts.js';
import { latencyDistributionChartSpec } from '../../reports/latency-chart.js';
import { renderPng } from '../../reports/png-chart.js';
import { DASHBOARD_TEXT_WIDTH, MAX_PNG_WIDTH, wrapSpecTitles } from '../../reports/chart-width.js';
import { measureDejaVu } from '../../reports/chart-text-metrics.js';
import { buildWideSweep } from '../helpers/wide-sweep.js';

/** 10 engines with long names, 3 batch sizes: bars from 0.8 ms to 600 ms, every cell NOISY (rounds 30% apart). */
const ENGINES = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-node', 'tfjs-node-saved-model', 'tfjs-node-graph-model', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model', 'transformers-js'];
const RUN = buildWideSweep({ models: ['tiny-bert (embedded default)'], engines: ENGINES, batchSizes: [1, 8, 32], sequenceLengths: [8] });

function pngWidth(png: Uint8Array): number {
  return Buffer.from(png).readUInt32BE(16);
}

test('every PNG of a 10-engine sweep is at most 1,600 px wide', async () => {
  for (const [name, spec] of [['comparison', comparisonChartSpec(RUN)], ['batch-scaling', batchScalingChartSpec(RUN)], ['latency-distribution', latencyDistributionChartSpec(RUN)]] as const) {
    const width = pngWidth(await renderPng(spec));
    assert.ok(width <= MAX_PNG_WIDTH, `${name}.png is ${width} px wide`);
  }
});

test('comparison.png: bars spanning more than 10× share a log axis named on it; NOISY bars are outlined, with one legend entry', () => {
  const text = JSON.stringify(comparisonChartSpec(RUN));
  assert.match(text, /"type":"log"/u);
  assert.match(text, /time of one pass \((ms|s), log scale\), lower is better/u);
  assert.match(text, /"strokeDash":\{"field":"check","type":"nominal","scale":\{"domain":\["NOISY \(rounds disagree\)"\]/u);
  assert.equal((text.match(/"kind":"outline"/gu) ?? []).length, ENGINES.length * 3, 'every NOISY bar outlined');
  const narrow = buildWideSweep({ models: ['m'], engines: ['onnx-cpu', 'onnx-wasm'], batchSizes: [1], sequenceLengths: [8] });
  assert.doesNotMatch(JSON.stringify(comparisonChartSpec(narrow)), /log scale/u, 'a span under 10× keeps the linear axis');
});

test('dashboard specs have their title lines wrapped to a panel: no subtitle line wider than DASHBOARD_TEXT_WIDTH', () => {
  const wrapped = wrapSpecTitles({ views: { spec: comparisonChartSpec(RUN) } });
  const subtitle = (wrapped.views.spec as unknown as { title: { subtitle: string[] } }).title.subtitle;
  assert.ok(subtitle.length > 3);
  for (const line of subtitle) assert.ok(measureDejaVu(line, 11, false) <= DASHBOARD_TEXT_WIDTH || !line.includes(' '), line);
});
