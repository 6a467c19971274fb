import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderPng, renderSvg } from '../../reports/png-chart.js';
import { latencyDistributionChartSpec } from '../../reports/latency-chart.js';
import { batchScalingChartSpec, coreScalingChartSpec } from '../../reports/view-charts.js';
import { runComparisonChartSpec } from '../../reports/run-comparison-chart.js';
import { MODEL_NAME } from '../helpers/sample-run.js';
import { buildSweepRun } from '../helpers/sweep-run.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

test('core-scaling, batch-scaling, latency-distribution and run-comparison charts render with every engine named', async () => {
  const run = buildSweepRun({ rounds: 5 });
  const other = buildSweepRun({ id: 'run-b', rounds: 5, seedOffset: 3, slowdown: (engine) => (engine === 'onnx-cpu' ? 0.6 : 1) });
  const charts = {
    core: coreScalingChartSpec(run),
    batch: batchScalingChartSpec(run),
    latency: latencyDistributionChartSpec(run),
    compare: runComparisonChartSpec(run, other),
    compareOld: runComparisonChartSpec(buildSweepRun(), buildSweepRun({ id: 'run-b', slowdown: () => 0.6 })),
  };
  const texts: Record<string, string[]> = {
    core: [`${MODEL_NAME} – core scaling at batch 32`, 'threads (requested intra-op threads)', 'tfjs-wasm at 2, 4 threads (skipped)', 'onnx-wasm at 4 threads (errored)'],
    batch: [`${MODEL_NAME} – batch scaling with 1 thread`, 'p99 per batch', '✗ PARITY'],
    latency: ['latency distribution per engine', 'onnx-cpu (4 threads)', 'batch 32', 'NOISY: onnx-wasm (4 threads) at batch 1'],
    compare: ['run comparison', 'A: 2025-11-23T09-12-44Z-b81c', 'B: run-b', 'B 1.67× faster (p &lt; 0.001)', 'inconclusive in', 'Welch'],
    compareOld: ['run comparison', 'inconclusive (one round in A and B'],
  };
  for (const [name, spec] of Object.entries(charts)) {
    const png = await renderPng(spec);
    assert.deepEqual([...png.subarray(0, 8)], PNG_SIGNATURE, name);
    assert.ok(png.length > 10_000, `${name}: a real picture, not an empty canvas`);
    const svg = await renderSvg(spec);
    for (const engine of ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm']) assert.ok(svg.includes(engine), `${name} names ${engine}`);
    for (const text of texts[name] ?? []) assert.ok(svg.includes(text), `${name} shows "${text}"`);
  }
});
