/**
 * Issue 24: in a sweep over models, sequence lengths and hosts, every line
 * about one cell names the parts of its key that vary (cell-names.ts), and
 * reasons shared by many cells are said once with the cells they apply to.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CellResult, CompletedCell, RunRecord } from '../../src/core/results.js';
import { renderTerminalReport } from '../../src/scenarios/classify/terminal-report.js';
import { cellName, cellNamer, plannedKeys, varyingKeys } from '../../reports/run-views.js';
import { cellFromRounds, runOf } from '../helpers/round-cells.js';

const MODELS = ['tiny · fp32', 'tiny · q8'];
const SKIP_REASON = 'tfjs-cpu needs a model without quantized MatMulNBits nodes at this opset; run it with --dtype fp32, or drop tfjs-cpu from --engines';

/** One engine measured (one round each, so NOISY) and one skipped on every model × length × batch, on `hosts`. */
function sweep(hosts: readonly (string | undefined)[]): RunRecord {
  const completed: CompletedCell[] = [];
  const skipped: CellResult[] = [];
  for (const host of hosts)
    for (const model of MODELS)
      for (const sequenceLength of [8, 16])
        for (const batchSize of [1, 2]) {
          completed.push(cellFromRounds({ model, engine: 'onnx-cpu', batchSize, rows: 8, sequenceLength, rounds: [{ passes: 1, meanMs: 1 + batchSize }], ...(host ? { host } : {}) }));
          skipped.push({ model, engine: 'tfjs-cpu', batchSize, requestedThreads: null, sequenceLength, state: 'skipped', reason: SKIP_REASON, ...(host ? { host: { name: host, id: host.padEnd(12, '0') } } : {}) });
        }
  const run = runOf(completed);
  return { ...run, cells: [...run.cells, ...skipped] };
}

test('verdict lines name model and length, and a reason shared by many cells is said once with every cell it applies to', () => {
  const run = sweep([undefined]);
  const text = renderTerminalReport(run, { details: true, width: 100 });
  const names = run.cells.filter((c) => c.engine === 'onnx-cpu').map(cellNamer(run));
  assert.equal(new Set(names).size, 8, `every cell has its own name: ${names.join(' | ')}`);
  assert.ok(names.includes('tiny · q8: onnx-cpu, batch 2, seq 16'), names.join(' | '));
  assert.doesNotMatch(text, /^NOISY onnx-cpu, batch \d:/mu, 'no verdict line leaves the model and length out');
  const verdicts = text.slice(text.indexOf('INFERENCE – LATENCY STATISTICS'), text.indexOf('BATCH SCALING'));
  const noisy = verdicts.split('\n').filter((l) => l.startsWith('NOISY'));
  assert.equal(noisy.length, 1, `one NOISY line for the 8 cells that share its reason:\n${noisy.join('\n')}`);
  assert.match(noisy[0] ?? '', /^NOISY \(8 cells\): /u);
  for (const name of names) assert.ok(verdicts.replace(/\n {4}/gu, ' ').includes(name), `${name} is listed under its reason`);

  // The speed table cuts the long skip reason, so "Reasons in full" follows: one reason, 8 cells.
  const reasons = text.slice(text.indexOf('Reasons in full:'));
  assert.ok(text.includes('Reasons in full:'), 'the skip reason was cut in the speed table');
  const block = reasons.slice(0, reasons.indexOf('\n\n'));
  assert.equal(block.split('needs a model without quantized').length - 1, 1, `the shared reason is printed once:\n${block}`);
  assert.match(block, /8 cells \(skipped\)/u);
  for (const name of run.cells.filter((c) => c.state === 'skipped').map(cellNamer(run))) {
    assert.ok(block.replace(/\n +/gu, ' ').includes(name), `${name} is listed under the reason`);
  }
});

test('with two hosts every per-cell table has a host column and every name says its host; a local run names none', () => {
  const run = sweep(['box-a', 'box-b']);
  const text = renderTerminalReport(run, { details: true, width: 200 });
  for (const title of ['INFERENCE – LATENCY STATISTICS', 'MEMORY – GROWTH', 'COLD START', 'OUTPUT PARITY']) {
    const section = text.slice(text.indexOf(title));
    const header = section.split('\n').find((l) => l.startsWith('model')) ?? '';
    assert.match(header, /\bhost\b/u, `${title} has a host column: ${header}`);
  }
  const names = run.cells.map(cellNamer(run));
  assert.equal(new Set(names).size, run.cells.length, 'no two cells of the two hosts share a name');
  assert.ok(names.includes('tiny · fp32: onnx-cpu @ box-b, batch 1, seq 8'), names.join(' | '));

  const local = sweep([undefined]);
  assert.doesNotMatch(local.cells.map(cellNamer(local)).join('\n'), /@/u);
});

test('progress names only what the planned sweep varies: a default run stays short, a sweep names every key', () => {
  const cell = { model: 'tiny · q8', engine: 'onnx-cpu', batchSize: 1, requestedThreads: 4, sequenceLength: 16, host: { name: 'box-a', id: 'a'.repeat(12) } };
  assert.equal(cellName(cell, plannedKeys({ models: 1, threads: 1, sequenceLengths: 1, queue: false })), 'onnx-cpu, batch 1');
  assert.equal(cellName(cell, plannedKeys({ models: 4, threads: 2, sequenceLengths: 2, queue: true })), 'tiny · q8: onnx-cpu (4 threads) @ box-a, batch 1, seq 16');
  assert.deepEqual(varyingKeys([cell, { ...cell, requestedThreads: null }]), { model: false, threads: true, sequenceLength: false, host: true });
});
