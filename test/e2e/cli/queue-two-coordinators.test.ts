import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const readRun = (out: string): RunRecord => {
  const [id] = readdirSync(out).filter((f) => !f.startsWith('history'));
  return JSON.parse(readFileSync(join(out, id!, 'results.json'), 'utf8')) as RunRecord;
};

test('two coordinators on one queue at once: each run records only its own jobs\' cells', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'shared', ['--engines', 'onnx-cpu,onnx-wasm']);
  try {
    // One timed pass per cell: which run each cell lands in is the subject, not how long it is measured.
    const common = ['--batch-sizes', '1,8', '--rounds', '1', '--limit', '16', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--max-time', '1', '--no-png'];
    const [outA, outB] = [testOutputDir('queue-coordinator-a'), testOutputDir('queue-coordinator-b')];
    const [a, b] = await Promise.all([
      // One engine at two thread counts tells the runs apart: an onnx-wasm child costs about twice an onnx-cpu one.
      runCli(['run', '--queue', redis.url, '--engines', 'onnx-cpu', '--threads', '1', ...common, '--out', outA]),
      runCli(['run', '--queue', redis.url, '--engines', 'onnx-cpu', '--threads', '2', ...common, '--out', outB]),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    const [runA, runB] = [readRun(outA), readRun(outB)];
    assert.deepEqual(runA.cells.map((c) => `${c.engine}/${c.requestedThreads}/${c.batchSize}/${c.state}`), ['onnx-cpu/1/1/completed', 'onnx-cpu/1/8/completed']);
    assert.deepEqual(runB.cells.map((c) => `${c.engine}/${c.requestedThreads}/${c.batchSize}/${c.state}`), ['onnx-cpu/2/1/completed', 'onnx-cpu/2/8/completed']);
  } finally {
    await worker.stop();
    await redis.stop();
  }
});
