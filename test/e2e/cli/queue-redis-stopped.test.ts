import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { isCleanUserError, runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('Redis stopped mid-run: the coordinator and the worker say so with the URL, and every cell that came back is kept', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'solo', ['--engines', 'onnx-cpu,onnx-wasm']);
  try {
    const out = testOutputDir('queue-redis-stopped');
    let stopping: Promise<void> | undefined;
    const r = await runCli(['run', '--queue', redis.url, '--engines', 'onnx-cpu,onnx-wasm', '--threads', '1,2', '--batch-sizes', '1', '--rounds', '1', '--limit', '16', '--min-time', '1', '--max-time', '3', '--no-png', '--out', out], {
      // Once the first job's cell is back, Redis goes away.
      onStderr: (text) => {
        if (!stopping && /\[1\/4\]/.test(text)) stopping = redis.stop();
      },
    });
    assert.ok(stopping, `no cell came back before Redis was stopped:\n${r.stderr}`);
    assert.ok(isCleanUserError(r), r.stderr);
    assert.match(r.stderr, new RegExp(`lost the connection to Redis at redis://127\\.0\\.0\\.1:${redis.port}`));
    const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
    const run = JSON.parse(readFileSync(join(out, runId!, 'results.json'), 'utf8')) as RunRecord;
    assert.equal(run.state, 'interrupted');
    assert.ok(run.cells.some((c) => c.state === 'completed' && c.host?.name === 'solo'), 'the finished cell is in results.json');
    await worker.waitFor(/lost the connection to Redis/, 120_000);
    const code = await new Promise<number | null>((resolve) => (worker.child.exitCode !== null ? resolve(worker.child.exitCode) : worker.child.once('exit', (c) => resolve(c))));
    assert.notEqual(code, 0);
    assert.doesNotMatch(worker.log(), /\n\s+at /);
  } finally {
    await worker.stop();
    await redis.stop();
  }
});
