import { test } from 'node:test';
import assert from 'node:assert/strict';
import { coreScalingChartSpec } from '../../reports/view-charts.js';
import { buildSweepRun, NOISY_CELL } from '../helpers/sweep-run.js';

test('core-scaling.png draws the 95% interval of samples/s as an error bar and rings the NOISY cell', () => {
  const run = buildSweepRun({ rounds: 3 });
  const spec = coreScalingChartSpec(run, { batchSize: NOISY_CELL.batchSize }) as unknown as {
    data: { values: Record<string, unknown>[] };
    layer: { mark: { type: string; filled?: boolean }; encoding?: { y?: { field: string }; y2?: { field: string }; opacity?: { condition?: { test: string } } } }[];
  };
  const rule = spec.layer.find((l) => l.mark.type === 'rule');
  assert.ok(rule?.encoding?.y && rule.encoding.y2, 'an error-bar rule from low to high');
  const [low, high] = [rule.encoding.y.field, rule.encoding.y2.field];
  for (const v of spec.data.values) {
    const [l, h, sps] = [v[low] as number, v[high] as number, v['sps'] as number];
    assert.ok(l > 0 && l < sps && sps < h, `${String(v['series'])} at ${String(v['x'])}: ${l} < ${sps} < ${h}`);
  }
  const ring = spec.layer.find((l) => l.mark.type === 'point' && l.mark.filled === false);
  // Drawn on every point and seen on the NOISY ones only: a layer filtered to none made vega warn on the dashboard.
  assert.ok(ring?.encoding?.opacity?.condition?.test.includes('noisy'), 'NOISY points get a ring');
  // One legend entry for the rings, a black circle as they are drawn (their colour is not any engine's).
  assert.match(JSON.stringify(ring), /"size":\{"field":"check".*"legend":\{"title":"check".*"symbolStrokeColor":"#000000"/u);
  assert.deepEqual((ring as unknown as { encoding: { color: unknown } }).encoding.color, { value: '#000000' });
  const noisy = spec.data.values.filter((v) => v['noisy'] === true);
  assert.deepEqual(noisy.map((v) => [v['series'], v['x']]), [[NOISY_CELL.engine, NOISY_CELL.threads]]);
});

test('a chart with no NOISY point has no ring and no ring legend entry', () => {
  const run = buildSweepRun({ rounds: 3 });
  const valid = { ...run, cells: run.cells.map((c) => (c.state === 'completed' && c.verdict ? { ...c, verdict: { ...c.verdict, status: 'VALID' as const, reasons: [] } } : c)) };
  assert.doesNotMatch(JSON.stringify(coreScalingChartSpec(valid, { batchSize: NOISY_CELL.batchSize })), /"title":"check"/u);
});
