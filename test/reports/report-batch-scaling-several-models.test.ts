import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CellResult } from '../../src/core/results.js';
import { renderSvg } from '../../reports/png-chart.js';
import { batchScalingChartSpec } from '../../reports/view-charts.js';
import { buildWideSweep } from '../helpers/wide-sweep.js';

/** Every colour scale domain in a spec. */
function colorDomains(spec: unknown): string[][] {
  const found: string[][] = [];
  const walk = (x: unknown): void => {
    if (Array.isArray(x)) x.forEach(walk);
    else if (x !== null && typeof x === 'object') {
      const o = x as Record<string, unknown>;
      const color = o['color'] as { scale?: { domain?: string[] } } | undefined;
      if (color?.scale?.domain) found.push(color.scale.domain);
      Object.values(o).forEach(walk);
    }
  };
  walk(spec);
  return found;
}

test('batch-scaling.png with several models, precisions and lengths: one panel each, one legend entry and colour per engine, none for skipped cells', async () => {
  const run = buildWideSweep({ models: ['tiny-bert (embedded default)', 'mini'], variants: true, engines: ['onnx-cpu', 'onnx-wasm'], batchSizes: [1, 2], sequenceLengths: [8, 16] });
  // A skipped cell (say tfjs-wasm at seq 16) must not take a legend slot or a colour.
  const skipped: CellResult = { model: 'mini · q8', engine: 'tfjs-wasm', batchSize: 1, requestedThreads: null, sequenceLength: 16, state: 'skipped', reason: 'no q8 kernels' };
  const withSkip = { ...run, cells: [...run.cells, skipped] };
  const spec = batchScalingChartSpec(withSkip);
  const domains = colorDomains(spec);
  assert.ok(domains.length > 0);
  for (const d of domains) assert.deepEqual(d, ['onnx-cpu', 'onnx-wasm'], `colour domain ${JSON.stringify(d)}`);
  const svg = await renderSvg(spec);
  // Eight panels (2 models × 2 precisions × 2 lengths), each named in full above its plot.
  for (const model of ['tiny-bert (embedded default)', 'mini']) {
    for (const dtype of ['fp32', 'q8']) for (const seq of [8, 16]) assert.ok(svg.includes(`${model} · ${dtype} · seq ${seq}`), `panel ${model} · ${dtype} · seq ${seq}`);
  }
  assert.ok(!svg.includes('defau…'), 'no legend entry is cut to the model name');
  assert.match(svg, /tfjs-wasm \(seq 16\)|mini · q8 tfjs-wasm/u, 'the skipped cell is named in the subtitle');
});
