import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const SECRET = 'pw-Secret-4711';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('redis://user:password@ works, and the password reaches no result file, no history and no log', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedis({ password: SECRET });
  const url = `redis://default:${SECRET}@127.0.0.1:${redis.port}`;
  const worker = await startWorker(url, 'guarded', ['--engines', 'onnx-cpu']);
  try {
    const out = testOutputDir('queue-secrets');
    const r = await runCli(['run', '--queue', url, '--engines', 'onnx-cpu', '--batch-sizes', '1', '--rounds', '1', '--limit', '16', '--min-time', '0.2', '--max-time', '1', '--out', out]);
    assert.equal(r.code, 0, r.stderr);
    const files = filesUnder(out);
    assert.ok(files.some((f) => f.endsWith('results.json')) && files.some((f) => f.includes('history')), files.join('\n'));
    for (const file of files) assert.ok(!readFileSync(file).includes(SECRET), `${file} holds the password`);
    assert.ok(!(r.stdout + r.stderr + worker.log()).includes(SECRET), 'no log holds the password');
    assert.match(readFileSync(files.find((f) => f.endsWith('results.json'))!, 'utf8'), /"url": "redis:\/\/default:\*\*\*@127\.0\.0\.1:\d+"/);
  } finally {
    await worker.stop();
    await redis.stop();
  }
});
