import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startFileServer } from '../../../src/launchers/queue/file-server.js';
import { listHash } from '../../../src/core/file-manifest.js';
import { REDIS_SKIP, startRedis, startWorker } from '../../helpers/redis-server.js';
import { baseJob, outcomeText, QueueWatch } from '../../helpers/queue-inject.js';
import { testOutputDir } from '../../helpers/test-cache.js';

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    return e.isDirectory() ? filesUnder(path).map((f) => join(e.name, f)) : [e.name];
  });
}

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

test('a job written straight into Redis cannot make a worker write outside its cache: .. in a served name, an existing file, a link out of the cache', { skip: REDIS_SKIP }, async () => {
  // The cache sits deep in a sandbox, so whatever a climbing path reaches on the old code stays in the sandbox.
  const sandbox = testOutputDir('queue-attack-write');
  const cache = join(sandbox, 'a', 'b', 'c', 'cache');
  mkdirSync(cache, { recursive: true });
  const victim = join(sandbox, 'a', 'b', 'c', 'd', 'victim.txt');
  mkdirSync(join(victim, '..'), { recursive: true });
  writeFileSync(victim, 'ORIGINAL');
  const outside = join(sandbox, 'outside');
  mkdirSync(outside);
  // The attacker's own file server, serving what its manifests list.
  const payload = 'PWNED';
  const payloadFile = join(sandbox, 'payload.txt');
  writeFileSync(payloadFile, payload);
  const server = await startFileServer('127.0.0.1:0');
  server.add(new Map([[sha(payload), payloadFile]]));
  const manifest = (name: string, path: string) => {
    const files = [{ path, sha256: sha(payload), size: payload.length }];
    return { hash: listHash(files), name, files, server: server.url };
  };
  // A link planted in the cache (a shared or restored cache) that leads out of it: a valid job whose hash is that folder.
  const linked = manifest('m', 'config.json');
  mkdirSync(join(cache, 'queue-files'), { recursive: true });
  symlinkSync(outside, join(cache, 'queue-files', linked.hash));

  const redis = await startRedis();
  const worker = await startWorker(redis.url, 'victim', ['--engines', 'onnx-cpu'], { INFERBENCH_CACHE: cache });
  const watch = await QueueWatch.open(redis.url);
  try {
    const base = await baseJob();
    const attacks = [
      { id: 'model-name', data: { ...base, model: { kind: 'files', manifest: manifest('../../../pwned', 'config.json') } }, field: /model\.manifest\.name/ },
      { id: 'dataset-name', data: { ...base, dataset: { kind: 'files', manifest: manifest('../../../pwned-data', 'rows.jsonl') } }, field: /dataset\.manifest\.name/ },
      { id: 'overwrite', data: { ...base, model: { kind: 'files', manifest: manifest('../../../d', 'victim.txt') } }, field: /model\.manifest\.name/ },
      { id: 'link', data: { ...base, model: { kind: 'files', manifest: linked } }, field: /model\.manifest\.name\W{1,3}leads through a symbolic link out of the worker's cache/ },
    ];
    for (const attack of attacks) {
      const outcome = await watch.add(attack.id, attack.data);
      assert.match(outcomeText(outcome), attack.field, `${attack.id}: the refusal names the field`);
    }
    const written = filesUnder(sandbox).filter((f) => !join(sandbox, f).startsWith(`${cache}/`));
    assert.deepEqual(written.sort(), [relative(sandbox, victim), 'payload.txt'].sort(), 'no file outside the cache but the ones the test made');
    assert.equal(readFileSync(victim, 'utf8'), 'ORIGINAL', 'the existing file outside the cache is untouched');
    assert.deepEqual(readdirSync(outside), [], 'nothing written through the link');
    assert.equal(worker.child.exitCode, null, 'the worker is still running');
  } finally {
    await watch.close();
    await worker.stop();
    await server.close();
    await redis.stop();
  }
});
