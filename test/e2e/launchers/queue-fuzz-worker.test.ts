import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { embeddedTexts } from '../../../datasets/open-dataset.js';
import { hashModelFolder, listHash } from '../../../src/core/file-manifest.js';
import { startFileServer } from '../../../src/launchers/queue/file-server.js';
import { TINY_BERT_CONFIG } from '../../../src/models/generated/bert-config.js';
import { ensureGeneratedModel } from '../../../src/models/generated/generated-model.js';
import { mutateJob, seededRandom } from '../../helpers/job-fuzz.js';
import { baseJob, outcomeText, QueueWatch } from '../../helpers/queue-inject.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir, useTestCache } from '../../helpers/test-cache.js';

const SEED = 0x23ab1e;
const PAYLOADS = 1000;
const MARKER = 'FUZZ-SECRET-51c0';

/** Every file under `dir` (links not followed), relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)).map((f) => join(e.name, f)) : [e.name]));
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

test(`${PAYLOADS} seeded mutated job payloads against a real worker: no file outside its cache, no local bytes in any refusal, and it still takes a valid job`, { skip: REDIS_SKIP, timeout: 40 * 60_000 }, async (t) => {
  useTestCache();
  const sandbox = testOutputDir('queue-fuzz');
  // Ten levels deep: no climbing path (at most 10 `..` past the cache's own two) leaves the sandbox, even on unfixed code.
  const cache = join(sandbox, ...Array.from({ length: 10 }, (_, i) => `l${i}`), 'cache');
  const cwd = join(sandbox, 'cwd');
  const outsideDir = join(sandbox, 'outside');
  for (const dir of [cache, cwd, outsideDir]) mkdirSync(dir, { recursive: true });
  const secret = join(sandbox, 'secret.jsonl');
  writeFileSync(secret, `${MARKER} a local line that is not JSON\n`);
  const secretJson = join(outsideDir, 'secret.json');
  writeFileSync(secretJson, JSON.stringify({ text: MARKER, label: 0 }));
  const planted = new Set([relative(sandbox, secret), relative(sandbox, secretJson)]);

  const payload = JSON.stringify({ text: 'served', label: 1 });
  const payloadFile = join(sandbox, 'payload.jsonl');
  writeFileSync(payloadFile, `${payload}\n`);
  planted.add(relative(sandbox, payloadFile));
  const server = await startFileServer('127.0.0.1:0');
  server.add(new Map([[sha(`${payload}\n`), payloadFile]]));
  const files = [{ path: 'rows.jsonl', sha256: sha(`${payload}\n`), size: payload.length + 1 }];
  const manifest = { hash: listHash(files), name: 'served', files, server: server.url };

  const base = await baseJob('fuzz');
  const templates = [
    base,
    { ...base, model: { kind: 'files', manifest } },
    { ...base, dataset: { kind: 'files', manifest } },
    { ...base, model: { kind: 'hub', id: 'acme/tiny-bert', revision: 'main' } },
    { ...base, dataset: { kind: 'hub', id: 'acme/reviews' }, datasetConfig: 'default', split: 'train' },
    { ...base, model: { kind: 'architecture', spec: { name: 'small', config: { ...TINY_BERT_CONFIG, hiddenSize: 32, numLayers: 1, intermediateSize: 64 }, padVocabulary: false } } },
  ];
  const random = seededRandom(SEED);
  const targets = { absolute: [sandbox, outsideDir, cwd], secrets: [secret, secretJson], maxClimb: 10 };

  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'fuzzed', ['--engines', 'onnx-cpu'], { INFERBENCH_CACHE: cache, HF_HUB_OFFLINE: '1', HF_HOME: join(cache, 'hf') }, cwd);
  const watch = await QueueWatch.open(redis.url);
  try {
    const ids: string[] = [];
    for (let i = 0; i < PAYLOADS; i++) {
      const data = mutateJob(templates[i % templates.length] as never, random, targets);
      const id = `fuzz-${i}`;
      ids.push(id);
      await watch.queue.add('open-group', data, { jobId: id, removeOnComplete: true, removeOnFail: true });
    }
    const said: string[] = [];
    const kinds = new Map<string, number>();
    for (const id of ids) {
      const outcome = await watch.outcome(id, 10 * 60_000);
      const kind = outcome.kind === 'failed' ? 'refused by the schema' : `returned ${(outcome.value as { kind?: string }).kind ?? '?'}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      said.push(outcomeText(outcome));
    }
    t.diagnostic(`seed ${SEED}: ${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}`);

    const outside = filesUnder(sandbox).filter((f) => !join(sandbox, f).startsWith(`${cache}/`) && !planted.has(f));
    assert.deepEqual(outside, [], 'files written outside the cache');
    for (const text of [...said, worker.log()]) {
      assert.ok(!text.includes(MARKER), `a local file's bytes came back: ${text.slice(0, 300)}`);
      assert.ok(!/root:x:0:0/.test(text), `/etc/passwd came back: ${text.slice(0, 300)}`);
    }
    assert.equal(worker.child.exitCode, null, 'the worker is still running');

    // And it still measures: the default model with its true hash.
    const modelHash = await hashModelFolder(await ensureGeneratedModel(TINY_BERT_CONFIG, { texts: await embeddedTexts() }), 'onnx/model.onnx');
    const valid = await watch.add('valid-after-fuzz', { ...base, modelHash, stop: { minTimeMs: 0, minBatches: 1, maxTimeMs: 2000 } }, 10 * 60_000);
    assert.equal(valid.kind, 'completed', outcomeText(valid));
    const value = valid.kind === 'completed' ? (valid.value as { kind: string; cells: { state: string }[] }) : null;
    assert.equal(value?.kind, 'cells', outcomeText(valid));
    assert.equal(value?.cells[0]?.state, 'completed', outcomeText(valid));
  } finally {
    await watch.close();
    await worker.stop();
    await server.close();
    await redis.stop();
  }
});
