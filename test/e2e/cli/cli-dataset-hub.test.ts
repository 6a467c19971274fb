import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { RunRecord } from '../../../src/core/results.js';
import { fixture } from '../../helpers/dataset-files.js';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { startMockHub, type MockHub } from '../../helpers/mock-hub.js';
import { testOutputDir } from '../../helpers/test-cache.js';

let hub: MockHub;

before(async () => {
  const shard = fixture('pyarrow-zstd.parquet');
  hub = await startMockHub([
    { id: 'acme/reviews', splits: { default: { train: [shard], validation: [shard] } } },
    { id: 'acme/private', access: 'private', splits: { default: { train: [shard] } } },
  ]);
});
after(() => hub.close());

/** Environment of a CLI run against the mock Hub with its own cache, whatever the user's shell has set. */
function hubEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { HF_ENDPOINT: hub.url, HF_HUB_CACHE: join(testOutputDir('cli-hub-cache'), 'hub'), HF_TOKEN: '', HF_HUB_OFFLINE: '', ...extra };
}

test('inferbench run --dataset <hub id> --dataset-config --split streams the Hub split and records it', async () => {
  const out = testOutputDir('cli-hub');
  const r = await runCli(
    ['run', '--dataset', 'acme/reviews', '--dataset-config', 'default', '--split', 'validation', '--engines', 'onnx-cpu', '--batch-sizes', '4', '--limit', '8', '--rounds', '1', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--no-isolate', '--no-png', '--out', out],
    { env: hubEnv() },
  );
  assert.equal(r.code, 0, r.stderr);
  const run = JSON.parse(readFileSync(join(out, readdirSync(out)[0] ?? '', 'results.json'), 'utf8')) as RunRecord;
  assert.equal(run.config['datasetResolved'], 'acme/reviews (default/validation)');
  assert.equal(run.config['split'], 'validation');
  assert.equal(run.cells[0]?.state, 'completed');
  assert.ok(hub.requests.some((r) => r.path === '/api/datasets/acme/reviews/parquet/default/validation'));
});

test('an unknown split, or a private dataset without HF_TOKEN, exits with one clean message', async () => {
  const split = await runCli(['run', '--dataset', 'acme/reviews', '--split', 'test', '--engines', 'onnx-cpu'], { env: hubEnv() });
  assert.ok(isCleanUserError(split), split.stderr);
  assert.match(split.stderr, /no split "test"; its splits are: "train", "validation"/u);

  const denied = await runCli(['run', '--dataset', 'acme/private', '--engines', 'onnx-cpu'], { env: hubEnv() });
  assert.ok(isCleanUserError(denied), denied.stderr);
  assert.match(denied.stderr, /HF_TOKEN/u);
});
