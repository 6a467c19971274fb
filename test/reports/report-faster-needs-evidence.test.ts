import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletedCell } from '../../src/core/results.js';
import { betweenRoundsOf } from '../../src/core/statistics.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { buildSampleRun } from '../helpers/sample-run.js';

test('"X× faster" is printed only where the round means support it; a mean ratio the rounds do not support says so', () => {
  const run = buildSampleRun();
  const settled = renderTerminalReport(run, { details: true, color: false, width: 200 });
  assert.match(settled, /batch 8, engine time: onnx-cpu is 3\.1× faster than tfjs-wasm/);

  // tfjs-wasm's rounds now scatter around the same mean: 3.1× slower on average, but no longer shown to be.
  const wasm = run.cells.find((c) => c.engine === 'tfjs-wasm' && c.batchSize === 8) as CompletedCell;
  const m = wasm.latency.mean;
  const scattered = { ...wasm, betweenRounds: betweenRoundsOf([m * 0.2, m * 1.0, m * 1.8]) };
  const noisy = { ...run, cells: run.cells.map((c) => (c === wasm ? scattered : c)) };
  const text = renderTerminalReport(noisy, { details: true, color: false, width: 200 });
  assert.match(text, /batch 8, engine time: onnx-cpu is not shown faster than tfjs-wasm \(3\.1× in the mean; p = 0\.\d+ ≥ 0\.05/);
  assert.doesNotMatch(text, /batch 8, engine time: onnx-cpu is 3\.1× faster than tfjs-wasm/);
  assert.match(text, /4\.0× faster than onnx-wasm/, 'the other engines keep their supported calls');
});
