import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { startMockModelHub } from '../../helpers/mock-model-hub.js';
import { hubRepoFolder } from '../../helpers/hub-model-repo.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('one sweep runs a Hub id, a local folder and config presets, each in dtype rows, on onnx-cpu and the transformers.js pipeline', async (t) => {
  const repo = await hubRepoFolder('hub-sweep');
  const hub = await startMockModelHub([{ id: 'acme/tiny-bert', dir: repo }]);
  t.after(() => hub.close());
  const out = testOutputDir('hub-sweep-out');
  const r = await runCli(
    [
      'run', '--details', '--model', 'acme/tiny-bert', '--model', repo, '--config', 'tiny', '--config', 'hidden=32,layers=1,heads=2,intermediate=64',
      '--dtype', 'fp32,q8', '--engines', 'onnx-cpu,transformers-js', '--batch-sizes', '2', '--limit', '4', '--warmup', '1', '--min-time', '0', '--min-batches', '1', '--rounds', '1', '--no-isolate', '--out', out, '--no-png',
    ],
    { env: { HF_ENDPOINT: hub.url, HF_HUB_CACHE: testOutputDir('hub-sweep-cache'), HF_TOKEN: '', HF_HUB_OFFLINE: '' } },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /ETA/, 'no progress bar when stderr is not a terminal');
  const [runId] = readdirSync(out);
  const run = JSON.parse(readFileSync(join(out, runId ?? '', 'results.json'), 'utf8')) as RunRecord;
  const bases = ['acme/tiny-bert', 'repo', 'tiny', 'hidden=32,layers=1,heads=2,intermediate=64'];
  assert.deepEqual(run.models.map((m) => m.name), bases.flatMap((b) => [`${b} · fp32`, `${b} · q8`]));
  assert.equal(run.models[0]?.source, 'hub:acme/tiny-bert@main/onnx/model.onnx');
  for (const c of run.cells) {
    assert.equal(c.state, 'completed', JSON.stringify(c));
    if (c.state !== 'completed') continue;
    if (c.engine === 'transformers-js') {
      assert.ok(c.forward && c.forward.mean <= c.latency.mean);
      assert.ok(c.session.notes?.some((n) => n.includes('includes tokenization and post-processing')));
    }
  }
  assert.equal(run.cells.length, 8 * 2);
  assert.match(r.stdout, /forward/);
  assert.match(r.stdout, /acme\/tiny-bert · q8 +[\d.]+ KiB +0\.\d\d× fp32 +max \|Δ\|/);
});
