import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletedTrainingCell, TrainingRunRecord } from '../../src/scenarios/train/training-results.js';
import { betweenRoundsOf, computeStatistics } from '../../src/core/statistics.js';
import { renderSvg } from '../../reports/png-chart.js';
import { trainingChartSpec } from '../../src/scenarios/train/training-files.js';
import { buildSampleRun } from '../helpers/sample-run.js';

function cell(engine: string, means: number[], noisy: boolean): CompletedTrainingCell {
  const b = betweenRoundsOf(means);
  return {
    model: 'tiny', engine, batchSize: 4, sequenceLength: null, requestedThreads: null, state: 'completed',
    stepTime: computeStatistics(means), betweenRounds: { rounds: b.rounds, means, mean: b.mean, stdev: b.stdev, ci95: b.ci95 },
    verdict: noisy ? { status: 'NOISY', reasons: ['rounds disagree'] } : { status: 'VALID', reasons: [] },
    training: { optimizer: 'sgd' },
  } as unknown as CompletedTrainingCell;
}

test('step-time.png draws each cell\'s 95% interval across rounds (log scale, above zero) and marks a NOISY cell', async () => {
  // tfjs-cpu's 3 rounds are spread 10× apart: a symmetric interval would reach below zero.
  const run = { ...buildSampleRun(), cells: [cell('onnx-cpu', [10, 10.2, 9.9], false), cell('tfjs-cpu', [20, 200, 60], true)] } as unknown as TrainingRunRecord;
  const spec = trainingChartSpec(run) as unknown as { data: { values: { engine: string; low?: number; high?: number }[] }; layer: { mark: { type: string } }[] };
  for (const v of spec.data.values) {
    assert.ok(v.low !== undefined && v.high !== undefined, `${v.engine} has an interval`);
    assert.ok(v.low > 0 && v.low < v.high, `${v.engine}: ${v.low}–${v.high}`);
  }
  assert.ok(spec.layer.some((l) => l.mark.type === 'errorbar'), 'an error bar layer');
  const svg = await renderSvg(spec as never);
  assert.match(svg, /NOISY/u, 'the NOISY cell is marked');
  assert.match(svg, /tfjs-cpu batch 4/u, 'and named');
});
