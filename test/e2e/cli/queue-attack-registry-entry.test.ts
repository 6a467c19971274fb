import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { parseRedisUrl } from '../../../src/launchers/queue/redis-url.js';
import { runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker, type WorkerProcess } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('entries of the workers registry that are not JSON, or not a worker, are passed over: a worker starts and a run completes, with no stack trace', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const client = new Redis(parseRedisUrl(redis.url).options);
  await client.hset('inferbench:workers', { evil: '{not json', fake: JSON.stringify({ name: 'fake', heartbeat: 'soon' }), other: JSON.stringify({ name: 'not-other', id: 'x', heartbeat: Date.now(), concurrency: 1, environment: {}, engines: [] }) });
  client.disconnect();
  let worker: WorkerProcess | undefined;
  try {
    // A new worker read the registry at start: it printed a stack trace and hung.
    worker = await startWorker(redis.url, 'honest', ['--engines', 'onnx-cpu']);
    const out = testOutputDir('queue-registry-entry');
    const r = await runCli(['run', '--queue', redis.url, '--engines', 'onnx-cpu', '--batch-sizes', '1', '--rounds', '1', '--limit', '16', '--min-time', '0.2', '--max-time', '1', '--no-png', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr + worker.log(), /\n\s+at /, 'no stack trace');
    assert.match(r.stdout, /honest/, 'the real worker measured the cells');
    assert.doesNotMatch(r.stdout, /\bfake\b|\bevil\b|not-other/, 'no entry that is not a worker shows up as a host');
  } finally {
    await worker?.stop();
    await redis.stop();
  }
});
