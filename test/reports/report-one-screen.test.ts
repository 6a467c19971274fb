/**
 * Issue 47, point 1: the report a default run ends with is one screen (at
 * most 45 lines at 100 columns) that opens with the answer, with one line
 * each for parity, verdicts and the engines not run here; `--details`
 * prints every table there was before, and `show --view NAME` each alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CompletedCell, RunRecord } from '../../src/core/results.js';
import { renderReportView, renderTerminalReport, viewNames } from '../../src/scenarios/classify/terminal-report.js';
import { cellFromRounds, runOf } from '../helpers/round-cells.js';

const ENGINES = ['onnx-cpu', 'onnx-wasm', 'tfjs-wasm', 'tfjs-cpu', 'tfjs-wasm-graph-model', 'tfjs-cpu-graph-model', 'transformers-js'];
const UNAVAILABLE = ['onnx-cuda', 'onnx-tensorrt', 'onnx-webgpu', 'tfjs-node', 'tfjs-node-gpu', 'tfjs-node-saved-model', 'tfjs-node-gpu-saved-model', 'tfjs-node-graph-model', 'tfjs-node-gpu-graph-model', 'tfjs-webgpu', 'tfjs-webgpu-graph-model', 'transformers-js-cuda', 'transformers-js-webgpu'];

/** The default run's shape: 7 engines × batch 1 and 8, 3 rounds, parity against onnx-cpu, 13 engines unavailable. */
function defaultRun(wrongOn?: string): RunRecord {
  const cells: CompletedCell[] = ENGINES.flatMap((engine, e) =>
    [1, 8].map((batchSize) => {
      const ms = (1 + e * 3) * batchSize;
      const cell = cellFromRounds({ model: 'tiny-bert (embedded default)', engine, batchSize, rows: 16, rounds: [0.7, 1, 1.4].map((f) => ({ passes: 1, meanMs: ms * f })) });
      if (engine === 'onnx-cpu') return cell;
      const wrong = engine === wrongOn;
      return { ...cell, parity: { reference: 'onnx-cpu', maxAbsDiff: wrong ? 0.3 : 2e-6, argmaxAgreement: wrong ? 0.5 : 1, tolerance: 1e-4, withinTolerance: !wrong, rows: 16 } };
    }),
  );
  const run = runOf(cells);
  const unavailableEngines = UNAVAILABLE.map((id) => ({ id, reason: `unavailable: ${id} needs something this machine lacks, explained at length in a paragraph that runs on and on (enable it so)` }));
  return { ...run, config: { ...run.config, engines: ENGINES, batchSizes: [1, 8], limit: 16, unavailableEngines } };
}

test('the default run report is at most 45 lines at 100 columns and opens with the answer', () => {
  const text = renderTerminalReport(defaultRun(), { width: 100, historyId: 1 });
  const lines = text.trimEnd().split('\n');
  // The CLI prints the files written, the history line and one "Not drawn" line below it: leave them room.
  assert.ok(lines.length <= 45 - 6, `${lines.length} lines:\n${text}`);
  const firstTable = lines.findIndex((l) => l.startsWith('====='));
  assert.ok(lines.slice(0, firstTable).some((l) => l.startsWith('Fastest engine per batch size')), 'the answer comes before any table');
  assert.match(text, /Parity: all 12 checked cells agree with onnx-cpu within 1\.0e-4; `inferbench show 1 --view parity`/u);
  assert.match(text.replace(/\n/gu, ' '), /Verdicts: 14 of 14 cells NOISY \(rounds disagree by more than ±5%\); `inferbench show 1 --view noise`/u);
  assert.match(text, /13 engines not available here \(why, and how to enable each: `inferbench engines`\)/u);
  for (const gone of ['LATENCY STATISTICS', 'COLD START', 'ENVIRONMENT INFORMATION', 'MODEL SIZE', 'MEMORY']) assert.ok(!text.includes(gone), `${gone} only with --details`);
  assert.ok(lines.every((l) => l.length <= 100), 'fits 100 columns');
});

test('a cell with wrong outputs is named on the parity line, in red when colour is on', () => {
  const text = renderTerminalReport(defaultRun('tfjs-cpu'), { width: 100, color: true });
  assert.match(text, /\u001b\[31mParity: ✗ PARITY 2 of 12 checked cells differ from onnx-cpu by more than 1\.0e-4: tfjs-cpu, batch 1;/u);
  assert.match(text.replace(/\u001b\[\d+m/gu, '').replace(/\n/gu, ' '), /tfjs-cpu, batch 1; tfjs-cpu, batch 8; `inferbench show \S+ --view parity`/u);
});

test('--details prints every table there is, and show --view prints each alone', () => {
  const run = defaultRun();
  const details = renderTerminalReport(run, { width: 100, details: true });
  for (const title of ['INFERENCE – SPEED', 'LATENCY STATISTICS', 'BATCH SCALING', 'INFERENCE – MEMORY', 'MEMORY – GROWTH', 'COLD START', 'OUTPUT PARITY', 'MODEL SIZE', 'ENVIRONMENT INFORMATION']) {
    assert.ok(details.includes(title), `--details has ${title}`);
  }
  assert.match(details, /- not run here \(unavailable on this machine/u, 'the unavailable engines in full');
  assert.match(details, /95% CI of mean: across the round means/u, 'the legends');
  for (const [view, title] of [['latency', 'LATENCY STATISTICS'], ['cold-start', 'COLD START'], ['parity', 'OUTPUT PARITY'], ['size', 'MODEL SIZE'], ['environment', 'ENVIRONMENT INFORMATION'], ['growth', 'MEMORY – GROWTH'], ['memory', 'INFERENCE – MEMORY']] as const) {
    const one = renderReportView(run, view, { width: 100 });
    assert.ok(one.includes(title), `--view ${view}`);
    assert.ok(!one.includes('Fastest engine per batch size'), `--view ${view} is that table alone`);
  }
  assert.match(renderReportView(run, 'noise', { width: 100 }), /^NOISY \(14 cells\): /u);
  for (const name of ['speed', 'latency', 'noise', 'memory', 'growth', 'cold-start', 'parity', 'size', 'environment', 'legends']) assert.ok(viewNames().includes(name), name);
});
