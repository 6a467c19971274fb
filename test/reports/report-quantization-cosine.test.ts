import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CellResult, CompletedCell, ModelInfo, RunRecord } from '../../src/core/results.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';

/** The sample run's onnx-cpu cells as an embedding model's fp32 and q8 rows: no labels, q8's vectors within cosine 0.99997 of fp32's. */
function embeddingVariantRun(): RunRecord {
  const base = buildSampleRun();
  const cpu = base.cells.filter((c): c is CompletedCell => c.state === 'completed' && c.engine === 'onnx-cpu');
  const cells: CellResult[] = [...cpu.map((c) => ({ ...c, model: 'st · fp32', accuracy: null })), ...cpu.map((c) => ({ ...c, model: 'st · q8', accuracy: null }))];
  const model = (dtype: string, sizeBytes: number, parity: NonNullable<ModelInfo['variant']>['parity']): ModelInfo => ({
    name: `st · ${dtype}`,
    source: '/models/st',
    sizeBytes,
    notes: ['feature extraction: mean pooling, L2-normalised'],
    variant: { of: 'st', dtype, file: `onnx/model${dtype === 'fp32' ? '' : '_quantized'}.onnx`, parity, ...(dtype === 'fp32' ? {} : { quantizedBy: 'inferbench' as const, method: 'dynamic uint8' }) },
  });
  const parity = { reference: 'fp32', engine: 'onnx-cpu', maxAbsDiff: 0.0035, meanAbsDiff: 0.001, argmaxAgreement: 1, rows: 24, cosine: { min: 0.9999682, mean: 0.9999786 } };
  return { ...base, config: { ...base.config, calibration: null }, models: [model('fp32', 400_000, null), model('q8', 120_000, parity)], cells };
}

test('an embedding model\'s QUANTIZATION table gives min and mean cosine against fp32 on one line per variant, even at 80 columns, without the label-less accuracy columns', () => {
  for (const width of [80, 160]) {
    const text = renderTerminalReport(embeddingVariantRun(), { details: true, width });
    const table = text.slice(text.indexOf('QUANTIZATION'), text.indexOf('MODEL SIZE'));
    assert.match(table, /variant +engine +.*batch +.*speed-up vs fp32 +min cos vs fp32 +mean cos vs fp32/, `width ${width}:\n${table}`);
    const rows = table.split('\n').filter((l) => l.startsWith('q8 '));
    assert.equal(rows.length, 3, `one line per q8 cell at width ${width}:\n${table}`);
    for (const row of rows) assert.match(row, /^q8 +onnx-cpu +.*[\d.]+× +0\.999968 +0\.999979/, `width ${width}:\n${table}`);
    assert.doesNotMatch(table, /accuracy|argmax = fp32/, 'an unlabelled embedding run has no accuracy or argmax to show');
    assert.match(table, /cos vs fp32: the cosine similarity of each parity row's embedding/);
    for (const line of table.split('\n')) assert.ok(line.length <= width, `wider than ${width}: ${line}`);
  }
  const wide = renderTerminalReport(embeddingVariantRun(), { details: true, wide: true });
  assert.match(wide, /q8 +onnx-cpu +\S+ +1 +117 KiB +0\.30× +[\d.]+× +0\.999968 +0\.999979 +inferbench/, 'every column with --wide');
});
