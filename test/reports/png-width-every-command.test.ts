/**
 * Issue 47, point 4: every PNG of a load run, and of generate and train
 * runs, is at most 1,600 px wide, however many engines and rates, and a long
 * list (NOISY cells, cells not drawn, peaks) is a footnote of at most two
 * lines rather than a subtitle line per item.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { TopLevelSpec } from 'vega-lite';
import type { CompletedGenerationCell, GenerationRunRecord } from '../../src/scenarios/generate/generation-results.js';
import type { CompletedTrainingCell, TrainingRunRecord } from '../../src/scenarios/train/training-results.js';
import { betweenRoundsOf, computeStatistics } from '../../src/core/statistics.js';
import { renderPng } from '../../reports/png-chart.js';
import { MAX_PNG_WIDTH } from '../../reports/chart-width.js';
import { hockeyStickChartSpec, latencyCdfChartSpec } from '../../src/scenarios/load/load-charts.js';
import { generationChartSpec } from '../../src/scenarios/generate/generation-files.js';
import { trainingChartSpec } from '../../src/scenarios/train/training-files.js';
import { buildSampleRun } from '../helpers/sample-run.js';
import { buildLoadRun } from '../helpers/load-run-record.js';

const ENGINES = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-node', 'tfjs-node-saved-model', 'tfjs-node-graph-model', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model', 'transformers-js'];

const pngWidth = (png: Uint8Array): number => Buffer.from(png).readUInt32BE(16);
const subtitleOf = (spec: TopLevelSpec): string[] => (spec as unknown as { title: { subtitle: string[] } }).title.subtitle;

function generationRun(): GenerationRunRecord {
  const cells = ENGINES.flatMap((engine, e) =>
    [1, 4, 16].map((batchSize) => {
      const ms = (1 + e) * batchSize;
      return {
        model: 'gpt', engine, batchSize, promptLength: 8, newTokens: 4, requestedThreads: null, state: 'completed',
        session: { engine, backend: 'cpu', threads: 2, precision: 'fp32', versions: {} }, openMs: 10, warmupRuns: 0, samples: [],
        ttft: computeStatistics([ms, ms * 1.02, ms * 0.98]), tpot: computeStatistics([ms / 2, ms / 2]), decodeTokensPerSecond: 1000, prefillTokensPerSecond: 100,
        peakRssBytes: 1, peakGpuBytes: null, earlyStops: 0,
      } as unknown as CompletedGenerationCell;
    }),
  );
  return { ...buildSampleRun(), kind: 'generate', models: [{ name: 'gpt', source: '/m', sizeBytes: 1, notes: [] }], cells } as unknown as GenerationRunRecord;
}

function trainingRun(): TrainingRunRecord {
  const cells = ENGINES.flatMap((engine, e) =>
    [1, 4, 16, 64].map((batchSize) => {
      const means = [10, 14, 9].map((m) => m * (1 + e) * batchSize);
      const b = betweenRoundsOf(means);
      return {
        model: 'tiny', engine, batchSize, sequenceLength: null, requestedThreads: null, state: 'completed',
        stepTime: computeStatistics(means), betweenRounds: { rounds: b.rounds, means, mean: b.mean, stdev: b.stdev, ci95: b.ci95 },
        verdict: { status: 'NOISY', reasons: ['rounds disagree'] }, training: { optimizer: 'sgd' },
      } as unknown as CompletedTrainingCell;
    }),
  );
  return { ...buildSampleRun(), kind: 'train', cells } as unknown as TrainingRunRecord;
}

test('every PNG of a 10-engine load, generate and train run is at most 1,600 px wide, long lists in at most two footnote lines', async () => {
  const load = buildLoadRun({ engines: ENGINES, rates: [10, 20, 40, 80, 160, 320], slo: { percentile: 99, limitMs: 10 }, findPeak: true, threads: 2 });
  const charts: [string, TopLevelSpec][] = [
    ['hockey-stick', hockeyStickChartSpec(load)],
    ['latency-cdf', latencyCdfChartSpec(load)],
    ['ttft', generationChartSpec(generationRun(), 'ttft')],
    ['step-time', trainingChartSpec(trainingRun())],
  ];
  for (const [name, spec] of charts) {
    const width = pngWidth(await renderPng(spec));
    assert.ok(width <= MAX_PNG_WIDTH, `${name}.png is ${width} px wide`);
  }
  const peaks = subtitleOf(hockeyStickChartSpec(load)).filter((l) => l.includes('peak') || l.startsWith('  '));
  assert.ok(peaks.length <= 2, `the peaks take at most two lines: ${peaks.join(' / ')}`);
  const noisy = subtitleOf(trainingChartSpec(trainingRun())).filter((l) => /NOISY/u.test(l));
  assert.equal(noisy.length, 1, 'the 40 NOISY cells start one footnote');
  assert.ok(subtitleOf(trainingChartSpec(trainingRun())).length <= 3, 'of at most two lines');
});
