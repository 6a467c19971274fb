import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CellResult, CompletedCell, ModelInfo, RunRecord } from '../../src/core/results.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { betweenRoundsOf, computeStatistics } from '../../src/core/statistics.js';
import { variantComparison } from '../../reports/variant-summary.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { quantizationChartSpec } from '../../reports/quantization-chart.js';
import { runCharts } from '../../reports/write-run.js';
import { renderPng } from '../../reports/png-chart.js';

/** The sample run's onnx-cpu cells as an fp32 row and a q8 row written by inferbench: half the time, a quarter the size, 2 points less accurate. */
function variantRun(): RunRecord {
  const base = buildSampleRun();
  const cpu = base.cells.filter((c): c is CompletedCell => c.state === 'completed' && c.engine === 'onnx-cpu');
  const cells: CellResult[] = [
    ...cpu.map((c) => ({ ...c, model: 'm · fp32', accuracy: 0.9 })),
    // Half the time: the raw samples and round means halved, so every figure the views derive halves too.
    ...cpu.map((c) => {
      const runMs = c.samples.runMs.map((ms) => ms / 2);
      return { ...c, model: 'm · q8', accuracy: 0.88, samples: { ...c.samples, runMs }, latency: computeStatistics(runMs), betweenRounds: betweenRoundsOf((c.betweenRounds?.means ?? []).map((m) => m / 2)) };
    }),
  ];
  const model = (dtype: string, sizeBytes: number, extra: Partial<NonNullable<ModelInfo['variant']>> = {}): ModelInfo => ({
    name: `m · ${dtype}`,
    source: '/models/m',
    sizeBytes,
    notes: [],
    variant: { of: 'm', dtype, file: `onnx/model${dtype === 'fp32' ? '' : '_quantized'}.onnx`, parity: null, ...extra },
  });
  const parity = { reference: 'fp32', engine: 'onnx-cpu', maxAbsDiff: 0.01, meanAbsDiff: 0.002, argmaxAgreement: 0.96875, rows: 32 };
  return {
    ...base,
    config: { ...base.config, calibration: null },
    models: [model('fp32', 400), model('q8', 100, { parity, quantizedBy: 'inferbench', method: 'dynamic uint8 as quantize_dynamic writes it' })],
    cells,
  };
}

test('the QUANTIZATION table and chart answer the seed question: size ratio, speed-up per engine and batch, accuracy change and argmax agreement against fp32', async () => {
  const run = variantRun();
  const rows = variantComparison(run);
  assert.equal(rows.length, 3, 'one row per completed q8 cell');
  for (const r of rows) {
    assert.equal(r.dtype, 'q8');
    assert.equal(r.sizeRatio, 0.25);
    assert.ok(Math.abs((r.speedup ?? 0) - 2) < 1e-9, `speed-up ${r.speedup}`);
    assert.ok(Math.abs((r.accuracyDrop ?? 0) - 0.02) < 1e-9);
    assert.equal(r.argmaxAgreement, 0.96875);
    assert.equal(r.writtenBy, 'inferbench');
  }
  const text = renderTerminalReport(run, { details: true });
  assert.match(text, /QUANTIZATION – each variant against fp32/);
  assert.match(text, /q8 +onnx-cpu +8 +1 +100 B +0\.25× +2\.00× +88\.0% +−2\.0 pt +96\.9% +inferbench/);

  const spec = quantizationChartSpec(run) as unknown as { hconcat: { data: { values: Record<string, unknown>[] } }[] };
  assert.equal(spec.hconcat.length, 2, 'speed-up and accuracy side by side');
  assert.deepEqual(spec.hconcat[0]?.data.values.map((v) => v['text']), ['2.00×', '2.00×', '2.00×']);
  assert.deepEqual(spec.hconcat[1]?.data.values.map((v) => v['text']), ['−2.0 pt']);
  assert.ok(runCharts(run).some((c) => c.file === 'quantization.png' && 'spec' in c));
  assert.ok(!runCharts(buildSampleRun()).some((c) => c.file === 'quantization.png'), 'a run without variants gets no quantization chart');
  const png = await renderPng(quantizationChartSpec(run));
  assert.deepEqual([...png.subarray(1, 4)], [0x50, 0x4e, 0x47]);
});
