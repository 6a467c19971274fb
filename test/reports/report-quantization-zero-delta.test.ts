import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderSvg } from '../../reports/png-chart.js';
import { quantizationChartSpec } from '../../reports/quantization-chart.js';
import { buildWideSweep } from '../helpers/wide-sweep.js';

test('quantization.png when every accuracy delta is 0: a ±1 point axis with several ticks, "no change" labels, upright labels that cannot overlap', async () => {
  const run = buildWideSweep({ models: ['tiny'], variants: true, engines: ['onnx-cpu', 'onnx-wasm'], batchSizes: [1, 2], sequenceLengths: [8, 16], accuracy: 0.5 });
  const spec = quantizationChartSpec(run) as unknown as { hconcat: { encoding: { y: { scale?: { domain?: number[] } } }; layer: { mark: { type: string; angle?: number } }[] }[] };
  const accuracy = spec.hconcat[1];
  const domain = accuracy?.encoding.y.scale?.domain;
  assert.ok(domain && (domain[1] as number) - (domain[0] as number) >= 2, `accuracy domain ${JSON.stringify(domain)}`);
  for (const panel of spec.hconcat) for (const l of panel.layer.filter((x) => x.mark.type === 'text')) assert.equal(l.mark.angle, 270, 'bar labels stand upright');
  const svg = await renderSvg(spec as never);
  assert.ok(!svg.includes('>0.000000<'), 'no six-decimal zero tick');
  for (const tick of ['−1', '−0.5', '+0.5', '+1']) assert.ok(svg.includes(`>${tick}<`), `tick ${tick}`);
  assert.ok(svg.includes('no change'));
});
