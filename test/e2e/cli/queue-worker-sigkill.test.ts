import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('a worker SIGKILLed mid-job: stalled-job detection hands the job to the other worker, counted once, the retry on the cell', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  // 4 s: the lock is renewed every 2 s, so a surviving worker starved for a second on a loaded machine keeps its job.
  const opts = ['--engines', 'onnx-cpu', '--stall-timeout', '4'];
  const workers = await Promise.all([startWorker(redis.url, 'left', opts), startWorker(redis.url, 'right', opts)]);
  try {
    const out = testOutputDir('queue-sigkill');
    // One job of a few seconds, so the kill lands while it runs: two rounds, each a fresh child, of two cells of at least
    // 0.5 s each (--min-time 1 over both rounds); the kill follows the job's first log line by milliseconds. The surviving
    // worker then runs the whole job again, so its length is paid twice.
    const running = runCli(['run', '--details', '--queue', redis.url, '--engines', 'onnx-cpu', '--batch-sizes', '1,8', '--rounds', '2', '--limit', '16', '--min-time', '1', '--max-time', '6', '--no-png', '--out', out]);
    const taker = await Promise.race(workers.map((w) => w.waitFor(/job \S+: tiny-bert/, 90_000).then(() => w)));
    taker.child.kill('SIGKILL');
    const other = workers.find((w) => w !== taker)!;
    const r = await running;
    assert.equal(r.code, 0, `${r.stderr}\n${other.log()}`);
    assert.match(other.log(), /retry 1: a worker stopped while running it/);
    const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
    const run = JSON.parse(readFileSync(join(out, runId!, 'results.json'), 'utf8')) as RunRecord;
    assert.equal(run.cells.length, 2, 'the job is counted once');
    for (const cell of run.cells) {
      assert.equal(cell.state, 'completed', JSON.stringify(cell).slice(0, 300));
      assert.equal(cell.host?.name, other.name, 'measured by the surviving worker');
      assert.equal(cell.host?.retries, 1, 'the retry is recorded on the cell');
    }
    assert.match(r.stdout, /retried/);
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await redis.stop();
  }
});
