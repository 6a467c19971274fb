import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletedCell, RunRecord } from '../../../src/core/results.js';
import { packageRoot } from '../../../src/core/package-info.js';
import { runCli } from '../../helpers/cli.js';
import { parseCsv } from '../../helpers/parse-csv.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const BERT = join(packageRoot(), 'test', 'data', 'hf', 'bert');
const TINY = ['--limit', '4', '--warmup', '0', '--min-time', '0', '--min-batches', '1', '--rounds', '1', '--no-png'];

function record(out: string): RunRecord {
  const [runId] = readdirSync(out);
  return JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
}

function csvRows(out: string): Record<string, string>[] {
  const [runId] = readdirSync(out);
  const [head = [], ...rows] = parseCsv(readFileSync(join(out, runId ?? '', 'results.csv'), 'utf8'));
  return rows.map((row) => Object.fromEntries(head.map((name, i) => [name, row[i] ?? ''])));
}

test("run --engine-options 'onnx-cpu:graphOptimizationLevel=disabled|all' gives two onnx-cpu rows per batch size, and the disabled graph reads back more nodes", async () => {
  const out = testOutputDir('engine-options-ort');
  const r = await runCli(['run', '--model', BERT, '--engines', 'onnx-cpu', '--engine-options', 'onnx-cpu:graphOptimizationLevel=disabled|all', '--batch-sizes', '1,2', ...TINY, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const cells = record(out).cells;
  const at = (level: string, batch: number) => cells.find((c) => c.engine === `onnx-cpu [graphOptimizationLevel=${level}]` && c.batchSize === batch) as CompletedCell | undefined;
  for (const batch of [1, 2]) {
    const disabled = at('disabled', batch);
    const all = at('all', batch);
    assert.ok(disabled?.state === 'completed' && all?.state === 'completed', JSON.stringify(cells.map((c) => [c.engine, c.state])));
    assert.equal(disabled.session.engineOptions, 'graphOptimizationLevel=disabled');
    assert.equal(all.session.engineOptions, 'graphOptimizationLevel=all');
    const nodes = (c: CompletedCell) => Number(c.session.optionReadback?.['graphNodes']);
    assert.ok(nodes(disabled) > nodes(all) && nodes(all) > 0, `${nodes(disabled)} vs ${nodes(all)}`);
  }
  assert.equal(cells.length, 4, 'no defaults row besides the two variants');
  const rows = csvRows(out);
  assert.deepEqual(rows.map((row) => row['engine_options']).sort(), ['graphOptimizationLevel=all', 'graphOptimizationLevel=all', 'graphOptimizationLevel=disabled', 'graphOptimizationLevel=disabled']);
  assert.ok(rows.every((row) => /^graphNodes=\d+$/.test(row['option_readback'] ?? '')));
  assert.match(r.stdout, /Engine options: 2 engine variants ran non-default options/);
  assert.match(r.stdout, /onnx-cpu \[graphOptimizationLevel=disabled\]: read back graphNodes=\d+/);
});

test('an unknown key, a bad value and an engine not in --engines each exit 2 naming the fix', async () => {
  const out = testOutputDir('engine-options-errors');
  const base = ['run', '--model', BERT, '--engines', 'onnx-cpu', ...TINY, '--out', out];
  const unknown = await runCli([...base, '--engine-options', 'onnx-cpu:graphOptimisationLevel=all']);
  assert.equal(unknown.code, 2, unknown.stderr);
  assert.match(unknown.stderr, /onnx-cpu has no option "graphOptimisationLevel"/);
  assert.match(unknown.stderr, /graphOptimizationLevel, executionMode, interOpNumThreads/);
  const bad = await runCli([...base, '--engine-options', 'onnx-cpu:graphOptimizationLevel=fast']);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /disabled, basic, extended, layout, all/);
  const other = await runCli([...base, '--engine-options', 'onnx-wasm:numThreads=1']);
  assert.equal(other.code, 2, other.stderr);
  assert.match(other.stderr, /onnx-wasm, which is not in --engines/);
  for (const res of [unknown, bad, other]) assert.doesNotMatch(res.stderr, /\n\s+at /, 'no stack trace');
});

test('tfjs-wasm:WASM_HAS_SIMD_SUPPORT=false runs in its child process and reads back SIMD off', async () => {
  const out = testOutputDir('engine-options-tfjs-simd');
  const r = await runCli(['run', '--model', BERT, '--engines', 'tfjs-wasm', '--engine-options', 'tfjs-wasm:WASM_HAS_SIMD_SUPPORT=false', '--batch-sizes', '1', '--reference', 'none', ...TINY, '--out', out]);
  assert.equal(r.code, 0, r.stderr);
  const [cell] = record(out).cells;
  assert.ok(cell?.state === 'completed', JSON.stringify(cell));
  assert.equal(cell.engine, 'tfjs-wasm [WASM_HAS_SIMD_SUPPORT=false]');
  assert.deepEqual(cell.session.optionReadback, { WASM_HAS_SIMD_SUPPORT: 'false' });
  assert.ok(cell.session.notes?.includes('wasm SIMD off'), JSON.stringify(cell.session.notes));
  assert.equal(cell.session.ignoredOptions, undefined);
});

test('engines --options ID prints the table run checks against', async () => {
  const r = await runCli(['engines', '--options', 'onnx-wasm', '--wide']);
  assert.equal(r.code, 0, r.stderr);
  for (const key of ['graphOptimizationLevel', 'numThreads', 'proxy', 'freeDimensionOverrides']) assert.match(r.stdout, new RegExp(`^${key}  `, 'm'));
  assert.match(r.stdout, /read back: threads: env\.wasm\.numThreads/);
  const none = await runCli(['engines', '--options', 'tfjs-cpu']);
  assert.match(none.stdout, /tfjs-cpu takes no --engine-options/);
  const unknown = await runCli(['engines', '--options', 'onnx-cpuu']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown engine "onnx-cpuu" in --options/);
});
