import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Queue, QueueEvents } from 'bullmq';
import { parseQueueJob } from '../../../src/launchers/queue/job-schema.js';
import { loadQueueJobs } from '../../../src/scenarios/scenario-jobs.js';
import { parseArchitectures } from '../../../src/models/generated/arch-parse.js';
import { parseRedisUrl } from '../../../src/launchers/queue/redis-url.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';

// The built-in kinds, as `inferbench worker` registers them.
await loadQueueJobs();

test('a worker refuses anything but an inferbench job of the declared schema, with a logged reason, and runs nothing', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'strict', ['--engines', 'onnx-cpu']);
  const connection = parseRedisUrl(redis.url).options;
  const queue = new Queue('inferbench', { connection });
  // From the start of the (fresh) stream, so no event is missed however fast the worker refuses.
  const events = new QueueEvents('inferbench', { connection, lastEventId: '0-0' });
  try {
    await events.waitUntilReady();
    const bad = [
      { id: 'shell', data: { cmd: 'touch /tmp/pwned' } },
      { id: 'code', data: { schema: 'inferbench.open-group/2', engine: 'onnx-cpu', code: 'process.exit(1)' } },
    ];
    const failed = new Map<string, string>();
    const allFailed = new Promise<void>((resolve) =>
      events.on('failed', ({ jobId, failedReason }) => {
        failed.set(jobId, failedReason);
        if (failed.size === bad.length) resolve();
      }),
    );
    for (const job of bad) await queue.add('open-group', job.data, { jobId: job.id });
    await allFailed;
    assert.match(failed.get('shell') ?? '', /refused by worker strict: not an inferbench job \(job schema is not inferbench\.open-group\/2\)/);
    assert.match(failed.get('code') ?? '', /not an inferbench job \(field "code" is not a field of the schema\)/);
    assert.match(worker.log(), /job shell refused: not an inferbench job/);
    assert.match(worker.log(), /job code refused: not an inferbench job/);
  } finally {
    await events.close();
    await queue.close();
    await worker.stop();
    await redis.stop();
  }
});

test('the schema check names an unknown field and a path that climbs out of a served folder', () => {
  const manifest = { hash: 'a'.repeat(64), name: 'm', files: [{ path: 'config.json', sha256: 'b'.repeat(64), size: 1 }], server: 'http://10.0.0.1:8642' };
  const job = {
    schema: 'inferbench.open-group/2', runId: 'r1', row: 'm', model: { kind: 'files', manifest }, dtype: null, modelHash: 'c'.repeat(64),
    dataset: { kind: 'embedded' }, datasetConfig: null, split: null, rowsHash: 'd'.repeat(64), textColumn: null, labelColumn: null, limit: 16,
    sequenceLength: null, engine: 'onnx-cpu', threads: null, batchSizes: [1], rounds: 1, warmupBatches: 0,
    stop: { minTimeMs: 100, minBatches: 1, maxTimeMs: 1000 }, maxCv: 1, parity: { reference: null, tolerance: 1e-4 }, workers: null, refused: {},
  };
  assert.equal(parseQueueJob(job).ok, true);
  assert.deepEqual(parseQueueJob({ ...job, shell: 'rm -rf /' }), { ok: false, reason: 'field "shell" is not a field of the schema' });
  const climbing = { ...job, model: { kind: 'files', manifest: { ...manifest, files: [{ path: '../../etc/passwd', sha256: 'b'.repeat(64), size: 1 }] } } };
  assert.deepEqual(parseQueueJob(climbing), { ok: false, reason: 'field "model.manifest.files[0].path" must be a relative path of plain names joined by "/"' });
  assert.deepEqual(parseQueueJob({ ...job, model: { kind: 'module', path: '/tmp/x.js' } }), { ok: false, reason: 'field "model.kind" must be one of default, hub, architecture, files' });
});

test('every kind of job a coordinator builds passes the worker\'s schema: generated architectures, Hub models and datasets, served files', () => {
  const manifest = { hash: 'a'.repeat(64), name: 'my-export', files: [{ path: 'onnx/model.onnx', sha256: 'b'.repeat(64), size: 10 }], server: 'http://[::1]:8642' };
  const job = {
    schema: 'inferbench.open-group/2', runId: '2026-11-25T14-43-38Z-a50077', row: 'my-export · q8', model: { kind: 'default' }, dtype: 'q8', modelHash: 'c'.repeat(64),
    dataset: { kind: 'embedded' }, datasetConfig: null, split: null, rowsHash: 'd'.repeat(64), textColumn: 'review', labelColumn: 'label', limit: 256,
    sequenceLength: 128, engine: 'onnx-cpu', threads: 4, batchSizes: [1, 8, 32], rounds: 3, warmupBatches: 2,
    stop: { minTimeMs: 1000, minBatches: 20, maxTimeMs: 15000 }, maxCv: 1, parity: { reference: 'onnx-cpu', tolerance: 1e-4 }, workers: ['gpu-a100-1'], refused: { 'cpu-box': 'worker cpu-box: onnx-cuda is unavailable' },
  };
  const models = [
    ...parseArchitectures(['tiny', 'bert-base', 'hidden=64,layers=1,heads=2,labels=3']).map((spec) => ({ kind: 'architecture', spec })),
    { kind: 'hub', id: 'Xenova/distilbert-base-uncased-finetuned-sst-2-english', revision: 'main' },
    { kind: 'files', manifest },
  ];
  for (const model of models) assert.deepEqual(parseQueueJob({ ...job, model }), { ok: true, job: { ...job, model } }, JSON.stringify(model).slice(0, 120));
  for (const dataset of [{ kind: 'hub', id: 'stanfordnlp/imdb' }, { kind: 'files', manifest }]) {
    assert.equal(parseQueueJob({ ...job, dataset, datasetConfig: 'plain_text', split: 'test' }).ok, true, JSON.stringify(dataset));
  }
});
