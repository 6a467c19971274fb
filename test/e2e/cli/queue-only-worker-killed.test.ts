import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('the only worker SIGKILLed mid-job: the coordinator says no worker is alive and how long it waits, then records the cells as errored with that reason', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'lonely', ['--engines', 'onnx-cpu', '--stall-timeout', '2']);
  try {
    const out = testOutputDir('queue-only-worker-killed');
    // A job that runs for a minute, so the kill lands while it runs; nobody is left to notice its stalled lock.
    const running = runCli(
      ['run', '--queue', redis.url, '--engines', 'onnx-cpu', '--batch-sizes', '1,8', '--rounds', '1', '--limit', '16', '--min-time', '60', '--max-time', '120', '--worker-timeout', '5', '--no-png', '--out', out],
      { timeoutMs: 240_000 },
    );
    await worker.waitFor(/job \S+: tiny-bert/, 90_000);
    worker.child.kill('SIGKILL');
    const r = await running;
    assert.match(r.stderr, /no worker is alive on redis:\/\/127\.0\.0\.1:\d+ \(the last heartbeat came \d+ s ago\); waiting up to 5 s \(--worker-timeout\)/);
    assert.equal(r.code, 1, 'nothing was measured');
    const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
    const run = JSON.parse(readFileSync(join(out, runId!, 'results.json'), 'utf8')) as RunRecord;
    assert.equal(run.cells.length, 2);
    for (const cell of run.cells) {
      assert.equal(cell.state, 'errored');
      assert.match(cell.state === 'errored' ? cell.reason : '', /no worker alive for 5 s \(--worker-timeout\): every worker stopped sending heartbeats/);
    }
  } finally {
    await worker.stop();
    await redis.stop();
  }
});
