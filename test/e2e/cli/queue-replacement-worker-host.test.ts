import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker, type WorkerProcess } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('a worker that replaces a dead one and measures its job is recorded with its machine: the HOSTS row shows its cpu, gpu and os', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const opts = ['--engines', 'onnx-cpu', '--stall-timeout', '2'];
  const first = await startWorker(redis.url, 'first', opts);
  let replacement: WorkerProcess | undefined;
  try {
    const out = testOutputDir('queue-replacement');
    const running = runCli(['run', '--details', '--queue', redis.url, '--engines', 'onnx-cpu', '--batch-sizes', '1', '--rounds', '1', '--limit', '16', '--min-time', '3', '--max-time', '6', '--no-png', '--out', out]);
    await first.waitFor(/job \S+: tiny-bert/, 90_000);
    first.child.kill('SIGKILL');
    // Started after the run began: not among the workers the coordinator saw at the start.
    replacement = await startWorker(redis.url, 'second', opts);
    const r = await running;
    assert.equal(r.code, 0, `${r.stderr}\n${replacement.log()}`);
    const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
    const run = JSON.parse(readFileSync(join(out, runId!, 'results.json'), 'utf8')) as RunRecord;
    assert.equal(run.cells[0]?.host?.name, 'second');
    const recorded = (run.config['queue'] as { workers: { name: string; environment?: { cpuModel?: string } }[] }).workers;
    assert.ok(recorded.find((w) => w.name === 'second')?.environment?.cpuModel, 'the replacement\'s fingerprint is in the record');
    const row = r.stdout.split('\n').find((l) => /^\s*second\b/.test(l) && /cores/.test(l));
    assert.ok(row, `HOSTS has the replacement's machine:\n${r.stdout}`);
    assert.doesNotMatch(row, /\s\?\s/);
  } finally {
    await first.stop();
    await replacement?.stop();
    await redis.stop();
  }
});
