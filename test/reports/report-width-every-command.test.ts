/**
 * generate, train and load lay their reports out to the width run's report
 * takes (report-layout.ts): no line wider than it, where they used a fixed
 * 100 columns; `wide` keeps every line whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderGenerationReport } from '../../src/scenarios/generate/generation-report.js';
import { renderTrainingReport } from '../../src/scenarios/train/training-report.js';
import { renderLoadReport } from '../../src/scenarios/load/load-report.js';
import { visibleLength } from '../../reports/text-table.js';
import type { GenerationRunRecord } from '../../src/scenarios/generate/generation-results.js';
import type { TrainingRunRecord } from '../../src/scenarios/train/training-results.js';
import type { LoadRunRecord } from '../../src/scenarios/load/load-results.js';
import { buildSampleRun } from '../helpers/sample-run.js';

test('the generate, train and load reports fit the width they are given, and --wide lays them out without a limit', () => {
  const base = buildSampleRun();
  const models = [{ name: 'a-model-with-a-rather-long-name-for-a-narrow-terminal', source: '/home/someone/models/a-model-with-a-rather-long-name/onnx/model.onnx', sizeBytes: 1, notes: [] }];
  const record = { ...base, models, cells: [] };
  const render = {
    generate: (o: { width?: number; wide?: boolean }) => renderGenerationReport({ ...record, kind: 'generation' } as unknown as GenerationRunRecord, o),
    train: (o: { width?: number; wide?: boolean }) => renderTrainingReport({ ...record, kind: 'training' } as unknown as TrainingRunRecord, o),
    load: (o: { width?: number; wide?: boolean }) => renderLoadReport({ ...record, kind: 'server' } as unknown as LoadRunRecord, o),
  };
  for (const [command, fn] of Object.entries(render)) {
    for (const width of [50, 80]) {
      const over = fn({ width }).split('\n').filter((l) => visibleLength(l) > width);
      assert.deepEqual(over, [], `${command} at ${width} columns`);
    }
    assert.ok(fn({ width: 50, wide: true }).split('\n').some((l) => visibleLength(l) > 50), `${command} --wide keeps lines whole`);
  }
});
