import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletedGenerationCell, GenerationRunRecord } from '../../src/scenarios/generate/generation-results.js';
import { computeStatistics } from '../../src/core/statistics.js';
import { generationChartSpec } from '../../src/scenarios/generate/generation-files.js';
import { renderSvg } from '../../reports/png-chart.js';
import { buildSampleRun } from '../helpers/sample-run.js';

function cell(engine: string, ms: number): CompletedGenerationCell {
  return {
    model: 'gpt', engine, batchSize: 1, promptLength: 8, newTokens: 4, requestedThreads: null, state: 'completed',
    session: { engine, backend: 'cpu', threads: 2, precision: 'fp32', versions: {} }, openMs: 10, warmupRuns: 0, samples: [],
    ttft: computeStatistics([ms, ms * 1.02, ms * 0.98]), tpot: computeStatistics([ms / 2, ms / 2]), decodeTokensPerSecond: 1000, prefillTokensPerSecond: 100,
    peakRssBytes: 1, peakGpuBytes: null, earlyStops: 0,
  } as CompletedGenerationCell;
}

test('ttft.png and tpot.png print every bar\'s value, so a 0.87 ms engine beside a 40 ms one is read, not hidden at the axis', async () => {
  const run = { ...buildSampleRun(), models: [{ name: 'gpt', source: '/m', sizeBytes: 1, notes: [] }], cells: [cell('onnx-cpu', 0.87), cell('tfjs-cpu', 40)] } as unknown as GenerationRunRecord;
  const ttft = await renderSvg(generationChartSpec(run, 'ttft'));
  assert.ok(ttft.includes('>870 µs<'), 'the fast engine\'s TTFT is printed');
  assert.ok(ttft.includes('>40.0 ms<'));
  const tpot = await renderSvg(generationChartSpec(run, 'tpot'));
  assert.ok(tpot.includes('>435 µs<'), 'and its TPOT');
});
