import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { NO_CHROMIUM } from '../../helpers/browser.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('browser-tfjs-wasm-graph-model: the page loads the exported model.json with loadGraphModel and runs it with parity against onnx-cpu', { skip: NO_CHROMIUM }, async () => {
  const out = testOutputDir('browser-graph-model');
  const r = await runCli(['run', '--engines', 'browser-tfjs-wasm-graph-model', '--batch-sizes', '1', '--limit', '4', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--no-isolate', '--no-png', '--out', out], { timeoutMs: 300_000 });
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const [cell] = run.cells;
  assert.equal(cell?.state, 'completed', JSON.stringify(cell));
  if (cell?.state !== 'completed') return;
  assert.equal(cell.session.executor, 'tfjs-converter GraphModel');
  assert.match(cell.session.versions['@tensorflow/tfjs-converter'] ?? '', /^\d+\.\d+/);
  assert.ok(cell.session.notes?.some((n) => /loadGraphModel/.test(n)));
  assert.equal(cell.parity?.reference, 'onnx-cpu');
  assert.ok((cell.parity?.maxAbsDiff ?? Infinity) <= 1e-4, `parity ${cell.parity?.maxAbsDiff}`);
});
