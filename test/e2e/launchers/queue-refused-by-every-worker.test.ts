import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Queue, QueueEvents } from 'bullmq';
import { openDataset } from '../../../datasets/open-dataset.js';
import { hashRows } from '../../../src/core/file-manifest.js';
import { CLASSIFY_JOB_SCHEMA, type ClassifyQueueJob } from '../../../src/scenarios/classify/classify-queue-job.js';
import { parseRedisUrl } from '../../../src/launchers/queue/redis-url.js';
import type { JobOutcome } from '../../../src/core/queue-launch.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';

test('a job that no worker can run is refused by each in turn, offered to the next, and comes back with every worker\'s reason', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const workers = await Promise.all([startWorker(redis.url, 'one', ['--engines', 'onnx-cpu']), startWorker(redis.url, 'two', ['--engines', 'onnx-cpu'])]);
  const connection = parseRedisUrl(redis.url).options;
  const queue = new Queue('inferbench', { connection });
  const events = new QueueEvents('inferbench', { connection, lastEventId: '0-0' });
  try {
    await events.waitUntilReady();
    // A valid job whose model hash no regenerated default model can match.
    const job: ClassifyQueueJob = {
      schema: CLASSIFY_JOB_SCHEMA, runId: 'mismatch', row: 'tiny-bert (embedded default)', model: { kind: 'default' }, dtype: null, modelHash: 'f'.repeat(64),
      dataset: { kind: 'embedded' }, datasetConfig: null, split: null, rowsHash: await hashRows((await openDataset()).take(16)), textColumn: null, labelColumn: null,
      limit: 16, sequenceLength: null, engine: 'onnx-cpu', threads: null, batchSizes: [1], rounds: 1, warmupBatches: 0,
      stop: { minTimeMs: 100, minBatches: 1, maxTimeMs: 1000 }, maxCv: 1, parity: { reference: null, tolerance: 1e-4 }, workers: null, refused: {},
    };
    const done = new Promise<JobOutcome>((resolve) => events.on('completed', ({ returnvalue }) => resolve((typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as JobOutcome)));
    await queue.add('open-group', job, { jobId: 'mismatch.g0' });
    const outcome = await done;
    assert.equal(outcome.kind, 'refused');
    assert.ok(outcome.kind === 'refused' && !outcome.skip, 'a mismatch is an error, not a missing engine');
    assert.deepEqual(Object.keys(outcome.kind === 'refused' ? outcome.refused : {}).sort(), ['one', 'two']);
    for (const reason of Object.values(outcome.kind === 'refused' ? outcome.refused : {})) assert.match(reason, /differs from the coordinator's \(ffffffffffff…\); refused/);
    assert.ok(workers.some((w) => /refused here .*offered to the other workers/.test(w.log())), 'the first refusal offered it on');
  } finally {
    await events.close();
    await queue.close();
    await Promise.all(workers.map((w) => w.stop()));
    await redis.stop();
  }
});
