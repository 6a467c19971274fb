import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { buildSampleRun } from '../helpers/sample-run.js';

test('the report names the engines a sweep could not run here, grouped by reason, instead of leaving them out without a word', () => {
  const run = buildSampleRun();
  const notBuilt = 'unavailable: @tensorflow/tfjs-node is not installed (offline, `npm run setup:tfjs-node` builds it)';
  const noGpu = 'unavailable: no NVIDIA GPU found (nvidia-smi lists none)';
  const record = {
    ...run,
    config: {
      ...run.config,
      unavailableEngines: [
        { id: 'onnx-cuda', reason: noGpu },
        { id: 'tfjs-node', reason: notBuilt },
        { id: 'tfjs-node-saved-model', reason: notBuilt },
      ],
    },
  };
  const text = renderTerminalReport(record, { details: true, color: false });
  assert.match(text, /- not run here \(unavailable on this machine/);
  assert.match(text, /  - tfjs-node, tfjs-node-saved-model: @tensorflow\/tfjs-node is not installed \(offline, `npm run setup:tfjs-node` builds it\)/);
  assert.match(text, /  - onnx-cuda: no NVIDIA GPU found/);
  // A run where every engine could run prints no such line.
  assert.doesNotMatch(renderTerminalReport(run, { details: true, color: false }), /not run here/);
});
