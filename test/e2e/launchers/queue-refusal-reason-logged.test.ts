import { test } from 'node:test';
import assert from 'node:assert/strict';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { baseJob, QueueWatch } from '../../helpers/queue-inject.js';

test('a worker that is the last to refuse a job logs its own reason (a model hash mismatch), not only who refused', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'wA', ['--engines', 'onnx-cpu']);
  const watch = await QueueWatch.open(redis.url);
  try {
    await watch.add('mismatch.g0', await baseJob('mismatch'));
    const line = worker.log().split('\n').find((l) => l.includes('refused by every worker')) ?? '';
    assert.match(line, /job mismatch\.g0: refused by every worker \(wA\); reported back; here: worker wA: model tiny-bert \(embedded default\) here \(sha256 [0-9a-f]{12}…\) differs from the coordinator's \(ffffffffffff…\); refused/, worker.log());
  } finally {
    await watch.close();
    await worker.stop();
    await redis.stop();
  }
});
