import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderGenerationReport } from '../../src/scenarios/generate/generation-report.js';
import { renderTrainingReport } from '../../src/scenarios/train/training-report.js';
import { renderLoadReport } from '../../src/scenarios/load/load-report.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import type { GenerationRunRecord } from '../../src/scenarios/generate/generation-results.js';
import type { TrainingRunRecord } from '../../src/scenarios/train/training-results.js';
import type { LoadRunRecord } from '../../src/scenarios/load/load-results.js';
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
    ['generate', renderGenerationReport({ ...record, kind: 'generation' } as unknown as GenerationRunRecord, { details: true })],
    ['train', renderTrainingReport({ ...record, kind: 'training' } as unknown as TrainingRunRecord, { details: true })],
    ['load', renderLoadReport({ ...record, kind: 'server' } as unknown as LoadRunRecord, { details: true })],
  ];
  for (const [command, text] of reports) {
    assert.ok(text.includes(expected), `${command} prints them:\n${text}`);
  }
  // The one screen says it in one line, as run's does (issue 47).
  const screens: [string, string][] = [
    ['generate', renderGenerationReport({ ...record, kind: 'generation' } as unknown as GenerationRunRecord, { width: 100 })],
    ['train', renderTrainingReport({ ...record, kind: 'training' } as unknown as TrainingRunRecord, { width: 100 })],
    ['load', renderLoadReport({ ...record, kind: 'server' } as unknown as LoadRunRecord, { width: 100 })],
  ];
  for (const [command, text] of screens) {
    assert.match(text, /^2 engines not available here \(why, and how to enable each: `inferbench engines`\)$/mu, `${command}'s one screen:\n${text}`);
    assert.ok(!text.includes('- not run here'), `${command}'s list in full only with --details`);
  }
  // A run where every engine could run prints no such line.
  assert.doesNotMatch(renderTrainingReport({ ...base, cells: [] } as unknown as TrainingRunRecord), /not run here/);
});
