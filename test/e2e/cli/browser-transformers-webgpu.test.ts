import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { NO_CHROMIUM } from '../../helpers/browser.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/**
 * transformers.js on WebGPU in the page (here SwiftShader's fallback
 * adapter): the row says webgpu and no thread count, names the adapter,
 * states ORT's node placement (nodes on WebGPU, or an error), and its
 * logits match onnx-cpu.
 */
test('browser-transformers-js-webgpu runs the pipeline on WebGPU, with its node placement stated and parity against onnx-cpu', { skip: NO_CHROMIUM }, async () => {
  const out = testOutputDir('browser-tjs-webgpu');
  const args = ['run', '--engines', 'browser-transformers-js-webgpu', '--batch-sizes', '1', '--limit', '2', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--no-isolate', '--no-png', '--out', out];
  const r = await runCli(args, { timeoutMs: 300_000 });
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out).filter((f) => f !== 'history.duckdb');
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const [cell] = run.cells;
  assert.ok(cell?.state === 'completed', JSON.stringify(cell));
  assert.equal(cell.session.backend, 'webgpu');
  assert.equal(cell.session.threads, null);
  assert.match(cell.session.browser?.webgpuAdapter ?? '', /\S/);
  const placement = cell.session.notes?.find((n) => /ORT node placement/.test(n)) ?? '';
  assert.ok(Number(/WebGpuExecutionProvider (\d+) nodes/.exec(placement)?.[1]) > 0, placement);
  assert.equal(cell.parity?.reference, 'onnx-cpu');
  assert.ok((cell.parity?.maxAbsDiff ?? Infinity) <= 1e-4, `parity ${cell.parity?.maxAbsDiff}`);
});
