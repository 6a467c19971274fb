import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderGenerationReport } from '../../reports/generate/generation-report.js';
import { renderTrainingReport } from '../../reports/train/training-report.js';
import { renderLoadReport } from '../../reports/load/load-report.js';
import { renderTerminalReport } from '../../reports/classify/terminal-report.js';
import type { GenerationRunRecord } from '../../src/core/generation-results.js';
import type { TrainingRunRecord } from '../../src/core/training-results.js';
import type { LoadRunRecord } from '../../src/core/load-results.js';
import { buildSampleRun } from '../helpers/sample-run.js';

test('generate, train and load print the "not run here" lines that run prints, the same text from the same function', () => {
  const base = buildSampleRun();
  const notBuilt = 'unavailable: @tensorflow/tfjs-node is not installed (offline, `npm run setup:tfjs-node` builds it)';
  const config = { ...base.config, unavailableEngines: [{ id: 'tfjs-node', reason: notBuilt }, { id: 'onnx-cuda', reason: 'unavailable: no NVIDIA GPU found (nvidia-smi lists none)' }] };
  const record = { ...base, config, cells: [] };
  const expected = [
    '- not run here (unavailable on this machine; `inferbench engines` lists them all):',
    '  - tfjs-node: @tensorflow/tfjs-node is not installed (offline, `npm run setup:tfjs-node` builds it)',
    '  - onnx-cuda: no NVIDIA GPU found (nvidia-smi lists none)',
  ].join('\n');
  assert.ok(renderTerminalReport({ ...base, config }, { details: true, width: 120 }).includes(expected), 'run prints them');
  const reports: [string, string][] = [
    ['generate', renderGenerationReport({ ...record, kind: 'generation' } as unknown as GenerationRunRecord)],
    ['train', renderTrainingReport({ ...record, kind: 'training' } as unknown as TrainingRunRecord)],
    ['load', renderLoadReport({ ...record, kind: 'server' } as unknown as LoadRunRecord)],
  ];
  for (const [command, text] of reports) {
    assert.ok(text.includes(expected), `${command} prints them:\n${text}`);
  }
  // A run where every engine could run prints no such line.
  assert.doesNotMatch(renderTrainingReport({ ...base, cells: [] } as unknown as TrainingRunRecord), /not run here/);
});
