import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import type { CompletedCell } from '../../src/core/results.js';
import { buildSweepRun } from '../helpers/sweep-run.js';

test('the environment block gives each onnxruntime-node engine one placement line, with the CPU-fallback ops', () => {
  const run = buildSweepRun();
  const placement = { byProvider: { CUDAExecutionProvider: { nodes: 70, timeUs: 940 }, CPUExecutionProvider: { nodes: 3, timeUs: 60 } }, cpuFallbackOps: ['Gather', 'Shape'] };
  for (const cell of run.cells) {
    if (cell.engine === 'onnx-cpu' && cell.state !== 'skipped') Object.assign(cell, { session: { ...(cell as CompletedCell).session, placement } });
  }
  const lines = renderTerminalReport(run, { details: true }).split('\n');
  const engineLine = lines.findIndex((l) => l.startsWith('  - onnx-cpu:'));
  assert.ok(engineLine >= 0);
  assert.equal(lines[engineLine + 1], '      placement: CUDAExecutionProvider 96% of 73 nodes, 94% of node time · CPUExecutionProvider 4%, 6% · CPU fallback: Gather, Shape');
  assert.equal(lines.filter((l) => l.includes('placement:')).length, 1, 'engines without a placement get no line');
});
