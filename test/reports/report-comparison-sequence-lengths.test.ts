import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparisonChartSpec } from '../../reports/chart-spec.js';
import { buildWideSweep } from '../helpers/wide-sweep.js';

interface Mark { kind: string; model: string; engine: string; segment?: string; [k: string]: unknown }

test('comparison.png with several sequence lengths: each length its own bar group, never stacked into one bar', () => {
  const run = buildWideSweep({ models: ['tiny'], variants: true, engines: ['onnx-cpu', 'onnx-wasm'], batchSizes: [1, 2], sequenceLengths: [8, 16] });
  const spec = comparisonChartSpec(run) as unknown as { data: { values: Mark[] }; spec?: { layer: { encoding: { x: { field: string } } }[] }; layer?: { encoding: { x: { field: string } } }[] };
  const layers = spec.spec?.layer ?? spec.layer ?? [];
  const xField = layers[0]?.encoding.x.field as string;
  const segments = spec.data.values.filter((v) => v.kind === 'segment');
  assert.equal(segments.length, 2 * 2 * 2 * 2 * 2, 'two segments per cell');
  const places = segments.map((s) => [s.model, String(s[xField]), s.engine, s.segment].join(' | '));
  assert.equal(new Set(places).size, places.length, `two cells share one bar place: ${places.filter((p, i) => places.indexOf(p) !== i).join('; ')}`);
  const groups = [...new Set(segments.map((s) => String(s[xField])))];
  assert.deepEqual(groups, ['batch 1 · seq 8', 'batch 1 · seq 16', 'batch 2 · seq 8', 'batch 2 · seq 16']);
});
