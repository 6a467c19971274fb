import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { baseJob, QueueWatch } from '../../helpers/queue-inject.js';

test('a job whose stored data or opts is not JSON (written with plain Redis commands) is failed once with the reason, and the worker goes on', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'reader', ['--engines', 'onnx-cpu']);
  const watch = await QueueWatch.open(redis.url);
  try {
    // What `redis-cli HSET … / LPUSH … / ZADD …` leaves: BullMQ's own layout, with one field that is not JSON.
    const jobs = [
      { id: 'bad-data', fields: { data: '{"schema": not json', opts: '{}' }, reason: /its stored data is not JSON/ },
      { id: 'bad-opts', fields: { data: '{}', opts: 'attempts=5' }, reason: /its stored opts is not JSON/ },
    ];
    for (const job of jobs) {
      await watch.redis.hset(`bull:inferbench:${job.id}`, { name: 'open-group', ...job.fields, timestamp: Date.now(), delay: 0, priority: 0 });
      await watch.redis.lpush('bull:inferbench:wait', job.id);
      await watch.redis.zadd('bull:inferbench:marker', 0, '0');
    }
    for (const job of jobs) {
      const outcome = await watch.outcome(job.id, 60_000);
      assert.equal(outcome.kind, 'failed', job.id);
      assert.match(outcome.kind === 'failed' ? outcome.reason : '', job.reason, job.id);
      assert.equal(await watch.redis.lpos('bull:inferbench:active', job.id), null, `${job.id} is no longer active`);
      assert.equal(worker.log().split('\n').filter((l) => l.includes(`job ${job.id} `)).length, 1, `${job.id} is logged once:\n${worker.log()}`);
    }
    assert.doesNotMatch(worker.log(), /queue error/);
    // Still taking jobs: a valid one comes back refused for its model hash, as it should.
    const after = await watch.add('valid-after', await baseJob(), 120_000);
    assert.match(JSON.stringify(after), /differs from the coordinator's/);
  } finally {
    await watch.close();
    await worker.stop();
    await redis.stop();
  }
});
