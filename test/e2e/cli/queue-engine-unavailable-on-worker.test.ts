import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

test('an engine a worker lacks goes to a worker that has it; one no worker has is skipped with every worker\'s reason', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const workers = await Promise.all([startWorker(redis.url, 'cpu-only', ['--engines', 'onnx-cpu']), startWorker(redis.url, 'both', ['--engines', 'onnx-cpu,onnx-wasm'])]);
  try {
    const out = testOutputDir('queue-engine-unavailable');
    const r = await runCli(['run', '--queue', redis.url, '--engines', 'onnx-wasm,tfjs-cpu', '--batch-sizes', '1', '--rounds', '1', '--limit', '16', '--min-time', '0.2', '--max-time', '1', '--no-png', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
    const run = JSON.parse(readFileSync(join(out, runId!, 'results.json'), 'utf8')) as RunRecord;
    const wasm = run.cells.find((c) => c.engine === 'onnx-wasm');
    assert.equal(wasm?.state, 'completed', JSON.stringify(wasm).slice(0, 300));
    assert.equal(wasm.host?.name, 'both', 'only the worker that has onnx-wasm ran it');
    const tfjs = run.cells.find((c) => c.engine === 'tfjs-cpu');
    assert.equal(tfjs?.state, 'skipped');
    assert.match(tfjs.reason, /tfjs-cpu is unavailable on every worker: both: not offered by this worker[^;]*; cpu-only: not offered by this worker/);
    const unavailable = run.config['unavailableEngines'] as { id: string; reason: string }[];
    assert.ok(unavailable.some((u) => u.id === 'onnx-wasm' && /on worker cpu-only/.test(u.reason)), 'the record shows the engine unavailable on that worker');
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await redis.stop();
  }
});
