import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { testOutputDir } from '../../helpers/test-cache.js';
import { startMockModelHub } from '../../helpers/mock-model-hub.js';
import { hubRepoFolder } from '../../helpers/hub-model-repo.js';

test('a Hub model without the variant file: q4 is written by inferbench from the downloaded onnx/model.onnx, while q8 uses the repo\'s own file', async (t) => {
  const repo = await hubRepoFolder('hub-quantize');
  const hub = await startMockModelHub([{ id: 'acme/tiny-bert', dir: repo }]);
  t.after(() => hub.close());
  const out = testOutputDir('hub-quantize-out');
  const r = await runCli(
    ['run', '--model', 'acme/tiny-bert', '--dtype', 'q8,q4', '--engines', 'onnx-cpu', '--batch-sizes', '2', '--limit', '4', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--no-isolate', '--out', out, '--no-png'],
    { env: { HF_ENDPOINT: hub.url, HF_HUB_CACHE: testOutputDir('hub-quantize-cache'), HF_TOKEN: '', HF_HUB_OFFLINE: '' } },
  );
  assert.equal(r.code, 0, r.stderr);
  const [runId] = readdirSync(out).filter((f) => f !== 'history.duckdb');
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const q8 = run.models.find((m) => m.name === 'acme/tiny-bert · q8');
  const q4 = run.models.find((m) => m.name === 'acme/tiny-bert · q4');
  assert.equal(q8?.variant?.quantizedBy, undefined, "the repo's model_quantized.onnx is used as it is");
  assert.equal(q4?.variant?.quantizedBy, 'inferbench');
  assert.equal(q8?.source, 'hub:acme/tiny-bert@main/onnx/model_quantized.onnx', 'each row names the file it loads');
  assert.match(q4?.source ?? '', /quantized\/[0-9a-f]{64}\/onnx\/model_q4\.onnx$/, "inferbench's file, in its quantize cache");
  assert.ok(q4?.notes.includes('written from hub:acme/tiny-bert@main/onnx/model.onnx'), q4?.notes.join(' | '));
  for (const m of ['acme/tiny-bert · q8', 'acme/tiny-bert · q4']) assert.equal(run.cells.find((c) => c.model === m)?.state, 'completed', m);
});
