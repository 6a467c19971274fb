import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openDataset } from '../../datasets/open-dataset.js';
import { UserError } from '../../src/core/errors.js';
import { collect, embeddedRows, FAST_RETRY, fixture, mockHubEnv } from '../helpers/dataset-files.js';
import { startMockHub, type MockHub } from '../helpers/mock-hub.js';

let hub: MockHub;

before(async () => {
  hub = await startMockHub([{ id: 'acme/reviews', splits: { default: { train: [fixture('pyarrow-snappy.parquet')] } } }]);
});
after(() => hub.close());

/** Every cached range file, with whether its size matches the range its name gives. */
async function cachedRanges(cacheDir: string): Promise<{ name: string; complete: boolean }[]> {
  const root = join(cacheDir, 'datasets--acme--reviews', 'inferbench', 'ranges');
  const out: { name: string; complete: boolean }[] = [];
  for (const etag of await readdir(root).catch(() => [])) {
    for (const name of await readdir(join(root, etag))) {
      const m = /^(\d+)-(\d+)$/u.exec(name);
      const size = (await readFile(join(root, etag, name))).byteLength;
      out.push({ name, complete: m !== null && Number(m[2]) - Number(m[1]) === size });
    }
  }
  return out;
}

test('network failures are retried with backoff: HTTP 503, a reset connection and a body cut short', async () => {
  const env = mockHubEnv(hub.url);
  hub.inject({ match: /\/parquet$/u, kind: 'http503', times: 2 });
  hub.inject({ match: /\/resolve\//u, kind: 'reset', times: 1 });
  hub.inject({ match: /\/resolve\//u, kind: 'truncate', times: 1 });
  const dataset = await openDataset('acme/reviews', { hub: env, fetch: FAST_RETRY });
  assert.deepEqual(await collect(dataset), embeddedRows(120));
  const statuses = hub.requests.map((r) => r.status);
  assert.equal(statuses.filter((s) => s === 503).length, 2);
  const ranges = await cachedRanges(env.cacheDir);
  assert.ok(ranges.length > 0);
  assert.ok(ranges.every((r) => r.complete), `only complete ranges are cached: ${JSON.stringify(ranges)}`);
});

test('a failure that outlasts the retries is a clear error, and a partial download never enters the cache', async () => {
  const env = mockHubEnv(hub.url);
  hub.inject({ match: /\/parquet$/u, kind: 'http503', times: 3 });
  await assert.rejects(openDataset('acme/reviews', { hub: env, fetch: FAST_RETRY }), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /Could not fetch the Parquet file listing from http:\/\/127\.0\.0\.1:\d+\/api\/datasets\/acme\/reviews\/parquet after 3 attempts: HTTP 503/u);
    assert.match(err.fix ?? '', /HF_ENDPOINT/u);
    return true;
  });

  const dataset = await openDataset('acme/reviews', { hub: env, fetch: FAST_RETRY });
  hub.inject({ match: /\/resolve\//u, kind: 'truncate', times: 3 });
  await assert.rejects(collect(dataset), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /after 3 attempts: the body ended after \d+ of \d+ bytes|after 3 attempts: .*terminated/u);
    return true;
  });
  assert.deepEqual(await cachedRanges(env.cacheDir), [], 'nothing was cached');
  const leftovers = (await readdir(join(env.cacheDir, 'datasets--acme--reviews'), { recursive: true })).filter((n) => String(n).includes('incomplete'));
  assert.deepEqual(leftovers, [], 'no temporary files are left behind');
});
