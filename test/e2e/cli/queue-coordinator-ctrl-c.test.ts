import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** Jobs of the queue that no worker took yet. */
async function waitingJobs(client: Redis): Promise<number> {
  const [wait, delayed, prioritized] = await Promise.all([client.llen('bull:inferbench:wait'), client.zcard('bull:inferbench:delayed'), client.zcard('bull:inferbench:prioritized')]);
  return wait + delayed + prioritized;
}

test('Ctrl-C on the coordinator removes the waiting jobs, waits for the running one, writes what finished and exits 130', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'only', ['--engines', 'onnx-cpu,onnx-wasm']);
  try {
    const out = testOutputDir('queue-ctrl-c');
    let coordinator: ChildProcess | undefined;
    // Four jobs (two engines × two thread counts) on one worker: when the first is running, three wait.
    const running = runCli(['run', '--queue', redis.url, '--engines', 'onnx-cpu,onnx-wasm', '--threads', '1,2', '--batch-sizes', '1', '--rounds', '1', '--limit', '16', '--min-time', '1', '--max-time', '3', '--no-png', '--out', out], {
      onStderr: (_text, child) => (coordinator ??= child),
    });
    await worker.waitFor(/job \S+: tiny-bert/, 90_000);
    assert.ok(coordinator, 'the coordinator printed its run line before a job started');
    // The worker is stopped while Ctrl-C is handled, so it cannot finish the running job and take a waiting one before
    // the coordinator removed them, however long a loaded machine takes to deliver the signal; it goes on once the
    // queue holds no waiting job (or the coordinator ended).
    const client = new Redis(redis.url);
    try {
      worker.child.kill('SIGSTOP');
      try {
        coordinator.kill('SIGINT');
        let ended = false;
        void running.finally(() => (ended = true)).catch(() => undefined);
        while (!ended && (await waitingJobs(client)) > 0) await new Promise((r) => setTimeout(r, 50));
      } finally {
        worker.child.kill('SIGCONT');
      }
    } finally {
      client.disconnect();
    }
    const r = await running;
    assert.equal(r.code, 130, r.stderr);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
    const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
    const run = JSON.parse(readFileSync(join(out, runId!, 'results.json'), 'utf8')) as RunRecord;
    assert.equal(run.state, 'interrupted');
    assert.equal(run.cells.length, 4, 'every cell is accounted for');
    const done = run.cells.filter((c) => c.state === 'completed');
    assert.equal(done.length, 1, 'the job that was running finished and was written');
    assert.ok(run.cells.filter((c) => c.state !== 'completed').every((c) => c.state === 'skipped' && /interrupted/.test(c.reason)));
    const after = new Redis(redis.url);
    try {
      assert.equal(await after.llen('bull:inferbench:wait'), 0, 'no job of the run is left waiting');
      assert.equal(await after.zcard('bull:inferbench:delayed'), 0);
      assert.equal(await after.zcard('bull:inferbench:prioritized'), 0);
    } finally {
      after.disconnect();
    }
  } finally {
    await worker.stop();
    await redis.stop();
  }
});
