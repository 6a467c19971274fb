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
  // onnx-cpu is the engine one worker lacks: its child costs about half an onnx-wasm one, and as the parity reference in the sweep it needs no separate reference pass.
  const workers = await Promise.all([startWorker(redis.url, 'wasm-only', ['--engines', 'onnx-wasm']), startWorker(redis.url, 'both', ['--engines', 'onnx-cpu,onnx-wasm'])]);
  try {
    const out = testOutputDir('queue-engine-unavailable');
    const r = await runCli(['run', '--queue', redis.url, '--engines', 'onnx-cpu,tfjs-cpu', '--batch-sizes', '1', '--rounds', '1', '--limit', '16', '--min-time', '0.2', '--max-time', '1', '--no-png', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
    const run = JSON.parse(readFileSync(join(out, runId!, 'results.json'), 'utf8')) as RunRecord;
    const cpu = run.cells.find((c) => c.engine === 'onnx-cpu');
    assert.equal(cpu?.state, 'completed', JSON.stringify(cpu).slice(0, 300));
    assert.equal(cpu.host?.name, 'both', 'only the worker that has onnx-cpu ran it');
    const tfjs = run.cells.find((c) => c.engine === 'tfjs-cpu');
    assert.equal(tfjs?.state, 'skipped');
    assert.match(tfjs.reason, /tfjs-cpu is unavailable on every worker: both: not offered by this worker[^;]*; wasm-only: not offered by this worker/);
    const unavailable = run.config['unavailableEngines'] as { id: string; reason: string }[];
    assert.ok(unavailable.some((u) => u.id === 'onnx-cpu' && /on worker wasm-only/.test(u.reason)), 'the record shows the engine unavailable on that worker');
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await redis.stop();
  }
});
