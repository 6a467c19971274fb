import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { buildManifest } from '../../../src/core/file-manifest.js';
import { startFileServer } from '../../../src/launchers/queue/file-server.js';
import { ensureGeneratedModel } from '../../../src/models/generated/generated-model.js';
import { TINY_BERT_CONFIG } from '../../../src/models/generated/bert-config.js';
import { embeddedTexts } from '../../../datasets/open-dataset.js';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';
import { copyModelFolder } from '../../helpers/user-model-copy.js';

/** A local model folder (a copy of the generated default) and a small JSONL dataset, in a fresh folder. */
async function localInputs(dir: string): Promise<{ model: string; dataset: string }> {
  useTestCache();
  const generated = await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: await embeddedTexts() });
  const model = join(dir, 'my-model');
  copyModelFolder(generated, model);
  const dataset = join(dir, 'reviews.jsonl');
  writeFileSync(dataset, Array.from({ length: 24 }, (_, i) => JSON.stringify({ text: `review number ${i} was ${i % 2 ? 'great' : 'bad'}`, label: i % 2 })).join('\n'));
  return { model, dataset };
}

test('the model server serves only the run\'s files, by sha256, read-only', async () => {
  const dir = testOutputDir('queue-file-server');
  const { model } = await localInputs(dir);
  writeFileSync(join(dir, 'secret.txt'), 'not for workers');
  const server = await startFileServer('127.0.0.1:0');
  try {
    const { manifest, absolute } = await buildManifest(model, server.url);
    server.add(absolute);
    const config = manifest.files.find((f) => f.path === 'config.json')!;
    const ok = await fetch(`${server.url}/files/${config.sha256}`);
    assert.equal(ok.status, 200);
    assert.equal(await ok.text(), readFileSync(join(model, 'config.json'), 'utf8'));
    assert.equal((await fetch(`${server.url}/files/${'0'.repeat(64)}`)).status, 404, 'an unknown hash');
    assert.equal((await fetch(`${server.url}/files/../secret.txt`)).status, 404, 'no path is ever read from a request');
    assert.equal((await fetch(`${server.url}/`)).status, 404, 'nothing is listed');
    assert.equal((await fetch(`${server.url}/files/${config.sha256}`, { method: 'PUT', body: 'x' })).status, 405, 'read-only');
  } finally {
    await server.close();
  }
});

test('a local model folder and dataset reach a worker without a shared disk: fetched from --serve-models and verified by hash', { skip: REDIS_SKIP }, async () => {
  const dir = testOutputDir('queue-model-server');
  const { model, dataset } = await localInputs(dir);
  const workerCache = join(dir, 'worker-cache');
  mkdirSync(workerCache);
  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'remote', ['--engines', 'onnx-cpu'], { INFERBENCH_CACHE: workerCache });
  try {
    const out = join(dir, 'out');
    const args = ['run', '--queue', redis.url, '--model', model, '--dataset', dataset, '--engines', 'onnx-cpu', '--batch-sizes', '4', '--rounds', '1', '--min-time', '0.2', '--max-time', '1', '--no-png', '--out', out];
    const refused = await runCli(args);
    assert.ok(isCleanUserError(refused), refused.stderr);
    assert.match(refused.stderr, /(my-model|reviews\.jsonl) is on this machine's disk[\s\S]*--serve-models HOST:PORT/);
    assert.ok(!existsSync(out) || readdirSync(out).filter((f) => !f.startsWith('history')).length === 0, 'refused before a run folder was made');
    const r = await runCli([...args, '--serve-models', '127.0.0.1:0']);
    assert.equal(r.code, 0, `${r.stderr}\n${worker.log()}`);
    const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
    const run = JSON.parse(readFileSync(join(out, runId!, 'results.json'), 'utf8')) as RunRecord;
    assert.equal(run.cells.length, 1);
    assert.equal(run.cells[0]?.state, 'completed', JSON.stringify(run.cells[0]).slice(0, 300));
    assert.equal(run.cells[0]?.model, 'my-model');
    const fetched = readdirSync(join(workerCache, 'queue-files'));
    assert.equal(fetched.length, 2, 'the model folder and the dataset, each under its manifest hash');
    assert.ok(fetched.some((h) => existsSync(join(workerCache, 'queue-files', h, 'my-model', 'onnx', 'model.onnx'))));
    assert.ok(fetched.some((h) => existsSync(join(workerCache, 'queue-files', h, 'reviews.jsonl'))));
  } finally {
    await worker.stop();
    await redis.stop();
  }
});
