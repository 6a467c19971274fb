import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('--dtype fp32,fp16,q8,q4 runs one row per variant with size, speedup and parity against fp32', async () => {
  const out = testOutputDir('dtype-variants');
  const r = await runCli(['run', '--dtype', 'fp32,fp16,q8,q4', '--engines', 'onnx-cpu,tfjs-cpu', '--batch-sizes', '2', '--limit', '8', '--warmup', '1', '--min-time', '0', '--min-batches', '1', '--rounds', '1', '--no-isolate', '--out', out, '--no-png', '--details']);
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const names = ['fp32', 'fp16', 'q8', 'q4'].map((d) => `tiny-bert (embedded default) · ${d}`);
  assert.deepEqual(run.models.map((m) => m.name), names);
  const size = (dtype: string): number => run.models.find((m) => m.variant?.dtype === dtype)?.sizeBytes ?? 0;
  assert.ok(size('fp16') < size('fp32') && size('q8') < size('fp16'), run.models.map((m) => `${m.name} ${m.sizeBytes}`).join(', '));
  for (const m of run.models) {
    assert.equal(m.variant?.of, 'tiny-bert (embedded default)');
    if (m.variant?.dtype === 'fp32') continue;
    assert.ok(m.variant?.parity && m.variant.parity.rows > 0 && m.variant.parity.maxAbsDiff > 0, JSON.stringify(m.variant));
  }
  const cell = (dtype: string, engine: string) => run.cells.find((c) => c.model.endsWith(` · ${dtype}`) && c.engine === engine);
  for (const dtype of ['fp32', 'fp16', 'q8', 'q4']) assert.equal(cell(dtype, 'onnx-cpu')?.state, 'completed', dtype);
  const q8 = cell('q8', 'onnx-cpu');
  assert.equal(q8?.state === 'completed' && q8.session.precision, 'int8');
  // The translator runs the quantized ops (engines/tfjs/ops-quantized.ts): those tfjs cells complete and say how.
  for (const [dtype, precision] of [['q8', 'int8'], ['q4', 'int4']] as const) {
    const c = cell(dtype, 'tfjs-cpu');
    assert.ok(c?.state === 'completed' && c.session.precision === precision, JSON.stringify(c));
    assert.ok(c.session.notes?.some((n) => /MatMulInteger exact|MatMulNBits/.test(n)), JSON.stringify(c.session.notes));
  }
  assert.match(r.stdout, /MODEL SIZE/);
  assert.match(r.stdout, /tiny-bert \(embedded default\) · q8 +[\d.]+ KiB +0\.\d\d× fp32 +max \|Δ\| [\d.e-]+ · argmax \d+/);
  assert.match(r.stdout, /vs fp32/);
  assert.match(r.stdout, /· q4 +onnx-cpu .* \d+(\.\d)?× /);
});
