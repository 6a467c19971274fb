import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderRunComparison } from '../../src/scenarios/classify/compare-report.js';
import { compareRuns } from '../../reports/run-comparison.js';
import { buildSweepRun } from '../helpers/sweep-run.js';

test('compare warns, naming the cells, when either side ran on a noisy host (load per core > 1 or steal > 5%)', () => {
  const quiet = { loadPerCore: 0.4, stealShare: 0.01 };
  const a = buildSweepRun({ id: 'a', rounds: 3, hostNoise: (engine, batch, threads) => (engine === 'onnx-cpu' && batch === 1 && threads === 1 ? { loadPerCore: 1.7, stealShare: 0 } : quiet) });
  const b = buildSweepRun({ id: 'b', rounds: 3, seedOffset: 2, hostNoise: (engine, batch, threads) => (engine === 'onnx-wasm' && batch === 8 && threads === 2 ? { loadPerCore: 0.5, stealShare: 0.12 } : quiet) });
  const cmp = compareRuns(a, b);
  const text = renderRunComparison(cmp, { files: ['a.json', 'b.json'], width: 400 });
  const at = text.indexOf('warning: noisy host');
  assert.ok(at >= 0, text);
  // The warning wraps; its lines read as one.
  const warning = text.slice(at).split('\n').slice(0, 4).join(' ');
  assert.match(warning, /while measuring 2 cells: onnx-cpu · 1 thread · batch 1 \(A: load 1\.7\/core\), onnx-wasm · 2 threads · batch 8 \(B: steal 12%\)/u);
  // Load exactly 1 per core and 5% steal are still quiet; so is a record without noise readings.
  const edge = buildSweepRun({ id: 'e', rounds: 3, hostNoise: () => ({ loadPerCore: 1, stealShare: 0.05 }) });
  assert.ok(!renderRunComparison(compareRuns(edge, buildSweepRun({ rounds: 3 })), { files: ['e', 'x'] }).includes('noisy host'));
});
