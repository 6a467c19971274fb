import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { decodeOnnxFile } from '../../../src/core/onnx/onnx-file.js';
import { writeVariantGraph } from '../../../src/models/quantize/variant-writers.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { copyFixture, embeddingOnlyGraph, replaceGraph } from '../../helpers/quantize-folders.js';

function skipReason(run: RunRecord, model: string): string {
  const cell = run.cells.find((c) => c.model === model);
  return cell?.state === 'skipped' ? cell.reason : `not skipped: ${cell?.state}`;
}

test('a variant of an already quantized source is refused with the reason, and a graph with no MatMul/Gemm gets a row saying nothing to quantize', async () => {
  const quantized = copyFixture('bert', 'quantize-refused');
  const decoded = await decodeOnnxFile(join(quantized, 'onnx', 'model.onnx'));
  writeVariantGraph(decoded, 'int8');
  await replaceGraph(quantized, decoded);
  const plain = copyFixture('distilbert', 'quantize-nothing');
  writeFileSync(join(plain, 'onnx', 'model.onnx'), embeddingOnlyGraph());

  const out = testOutputDir('quantize-sources-out');
  const r = await runCli(['run', '--model', quantized, '--model', plain, '--dtype', 'fp32,q8,q4', '--engines', 'onnx-cpu', '--batch-sizes', '4', '--limit', '4', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--no-isolate', '--out', out, '--no-png']);
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  // The int8 source runs as itself; no variant is quantized again from it.
  assert.equal(run.cells.find((c) => c.model === 'bert · fp32')?.state, 'completed');
  for (const dtype of ['q8', 'q4']) assert.match(skipReason(run, `bert · ${dtype}`), /refused: the source onnx\/model\.onnx is not an fp32 graph: it is already quantized \(.*MatMulInteger ×\d+/);
  assert.equal(run.cells.find((c) => c.model === 'distilbert · fp32')?.state, 'completed');
  for (const dtype of ['q8', 'q4']) assert.match(skipReason(run, `distilbert · ${dtype}`), /^nothing to quantize: the graph has no MatMul or Gemm/);
  assert.match(r.stdout, /nothing to quantize/);
  assert.equal(readdirSync(join(quantized, 'onnx')).join(','), 'model.onnx');
});
