import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunRecord } from '../../../src/core/results.js';
import { runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

// Two open groups per host from one engine at two thread counts: each group is a job in a fresh child on its worker,
// and onnx-cpu's child costs about half of onnx-wasm's (whose wasm V8 recompiles in the background), for the same record.
// One timed pass per cell (--min-time 0 --min-batches 1 --warmup 0): where the cells run is the subject, not how long.
const SHORT = ['--engines', 'onnx-cpu', '--threads', '1,2', '--batch-sizes', '1,8', '--rounds', '1', '--limit', '16', '--min-time', '0', '--min-batches', '1', '--warmup', '0', '--max-time', '0.5', '--no-png'];

test('a coordinator and two named workers: --on-each-worker puts both hosts in one record, one table and the history', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis();
  const workers = await Promise.all([startWorker(redis.url, 'box-a', ['--engines', 'onnx-cpu,onnx-wasm']), startWorker(redis.url, 'box-b', ['--engines', 'onnx-cpu,onnx-wasm'])]);
  try {
    const out = testOutputDir('queue-two-workers');
    const r = await runCli(['run', '--details', '--queue', redis.url, '--on-each-worker', ...SHORT, '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const [runId] = readdirSync(out).filter((f) => !f.startsWith('history'));
    const run = JSON.parse(readFileSync(join(out, runId!, 'results.json'), 'utf8')) as RunRecord;
    assert.equal(run.cells.length, 8, 'two thread counts × two batch sizes × two hosts');
    for (const host of ['box-a', 'box-b']) {
      for (const threads of [1, 2]) {
        for (const batch of [1, 8]) {
          const cells = run.cells.filter((c) => c.host?.name === host && c.engine === 'onnx-cpu' && c.requestedThreads === threads && c.batchSize === batch);
          assert.equal(cells.length, 1, `onnx-cpu with ${threads} thread(s) at batch ${batch} on ${host} is recorded once`);
          assert.equal(cells[0]?.state, 'completed', JSON.stringify(cells[0]).slice(0, 300));
        }
      }
    }
    const queue = run.config['queue'] as { url: string; workers: { name: string; id: string; environment: { cores: number } }[] };
    assert.deepEqual(queue.workers.map((w) => w.name), ['box-a', 'box-b'], 'each worker registered its fingerprint');
    assert.ok(queue.workers.every((w) => /^[0-9a-f]{12}$/.test(w.id) && w.environment.cores > 0));
    // One table with a column per host.
    assert.match(r.stdout, /SAMPLES\/S BY HOST/);
    assert.match(r.stdout, /engine\s+threads\s+batch\s+box-a\s+box-b/);
    assert.match(r.stdout, /onnx-cpu \(2 threads\) @ box-b/);
    assert.match(readFileSync(join(out, runId!, 'results.csv'), 'utf8').split('\n')[0] ?? '', /,host,host_id,host_retries(,|\r?$)/);
    const show = await runCli(['show', '1', '--details', '--out', out]);
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /onnx-cpu @ box-a/);
    assert.match(show.stdout, /onnx-cpu @ box-b/);
    // Spread (no --on-each-worker) over the workers --workers names: box-a, though idle, takes none of it.
    const named = await runCli(['run', '--details', '--queue', redis.url, ...SHORT, '--workers', 'box-b', '--out', out]);
    assert.equal(named.code, 0, named.stderr);
    const namedId = readdirSync(out).filter((f) => !f.startsWith('history') && f !== runId)[0];
    const namedRun = JSON.parse(readFileSync(join(out, namedId!, 'results.json'), 'utf8')) as RunRecord;
    assert.equal(namedRun.cells.length, 4, 'spread: each cell once');
    assert.ok(namedRun.cells.every((c) => c.state === 'completed' && c.host?.name === 'box-b'), JSON.stringify(namedRun.cells.map((c) => [c.engine, c.host?.name])));
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await redis.stop();
  }
});
