import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parquetWriteFile } from 'hyparquet-writer';
import { datasetSourceString, openDataset } from '../../datasets/open-dataset.js';
import { collect, embeddedRows, FAST_RETRY, fixture, mockHubEnv } from '../helpers/dataset-files.js';
import { startMockHub, type MockHub } from '../helpers/mock-hub.js';
import { testOutputDir } from '../helpers/test-cache.js';

let hub: MockHub;
let big: string;
const BIG_ROWS = 20_000;

before(async () => {
  // Large enough (five row groups of ~100 kB) that reading one group downloads a fraction of the file.
  big = join(testOutputDir('hub-big'), 'big.parquet');
  const texts = embeddedRows(3000).map((r) => String(r['text']));
  parquetWriteFile({
    filename: big,
    columnData: [
      { name: 'text', data: Array.from({ length: BIG_ROWS }, (_, i) => `${texts[i % texts.length]} #${i}`), type: 'STRING' },
      { name: 'label', data: Int32Array.from({ length: BIG_ROWS }, (_, i) => i % 2), type: 'INT32' },
    ],
    rowGroupSize: 4000,
  });
  hub = await startMockHub([
    { id: 'acme/big', splits: { default: { train: [big, big] } } },
    {
      id: 'acme/reviews',
      // The real Hub writes huggingface.co into shard URLs; they must be moved onto HF_ENDPOINT.
      listingOrigin: 'https://huggingface.co',
      splits: {
        default: { train: [fixture('pyarrow-snappy.parquet'), fixture('pyarrow-zstd.parquet')], test: [fixture('pyarrow-gzip.parquet')] },
        other: { train: [fixture('datasets-to-parquet.parquet')] },
      },
    },
  ]);
});
after(() => hub.close());

test('a Hub dataset id streams its Parquet shards over range requests, in order, the same rows on every pass', async () => {
  const env = mockHubEnv(hub.url);
  const dataset = await openDataset('acme/reviews', { hub: env, fetch: FAST_RETRY });
  assert.equal(dataset.name, 'acme/reviews (default/train)');
  assert.deepEqual(await dataset.columns(), ['text', 'label', 'source']);

  const first = await collect(dataset);
  const expected = embeddedRows(120);
  assert.deepEqual(first, [...expected, ...expected], 'both shards, in shard order');
  assert.deepEqual(await collect(dataset), first, 'a second pass yields the same rows in the same order');

  const gets = hub.requests.filter((r) => r.method === 'GET' && r.path.includes('/resolve/'));
  assert.ok(gets.length > 0);
  assert.ok(gets.every((r) => r.range !== null && r.status === 206), 'every file read is a range request');
  assert.ok(hub.requests.every((r) => !r.path.startsWith('https')), 'all requests went to HF_ENDPOINT');
  const getsAfterFirstPass = gets.length;
  await collect(dataset);
  const getsNow = hub.requests.filter((r) => r.method === 'GET' && r.path.includes('/resolve/')).length;
  assert.equal(getsNow, getsAfterFirstPass, 'later passes read the cached ranges, not the network');

  const test = await openDataset('acme/reviews', { split: 'test', hub: env, fetch: FAST_RETRY });
  assert.deepEqual(await collect(test), expected);
  const asString = datasetSourceString('acme/reviews', { config: 'default', split: 'test' });
  assert.equal(asString, 'acme/reviews#config=default&split=test');
  const reopened = await openDataset(asString, { hub: env, fetch: FAST_RETRY });
  assert.equal(reopened.name, 'acme/reviews (default/test)', 'a source string carries the config and split to an isolated child');
  const other = await openDataset('acme/reviews', { config: 'other', hub: env, fetch: FAST_RETRY });
  assert.equal((await collect(other)).length, 120);
  assert.ok(hub.requests.some((r) => r.path === '/api/datasets/acme/reviews/parquet/other/train'), 'a named config uses the per-split listing');
});

test('take(n) stops reading: later row groups and later shards are never downloaded', async () => {
  const env = mockHubEnv(hub.url);
  const dataset = await openDataset('acme/big', { hub: env, fetch: FAST_RETRY });
  hub.requests.length = 0;
  const rows = await collect(dataset.take(10));
  assert.deepEqual(rows.map((r) => r['label']), [0, 1, 0, 1, 0, 1, 0, 1, 0, 1]);
  assert.match(String(rows[9]?.['text']), / #9$/u);
  const shardRequests = hub.requests.filter((r) => r.path.includes('.parquet'));
  assert.ok(shardRequests.every((r) => /\/0(000)?\.parquet$/u.test(r.path)), 'the second shard is never touched');
  const ranges = shardRequests.filter((r) => r.method === 'GET').map((r) => r.range ?? '');
  assert.equal(ranges.length, 2, `the footer, then the first row group only: ${JSON.stringify(ranges)}`);
  const bytes = ranges.reduce((sum, r) => {
    const [, from, to] = /bytes=(\d+)-(\d+)/u.exec(r) ?? [];
    return sum + Number(to) - Number(from) + 1;
  }, 0);
  const size = statSync(big).size;
  assert.ok(bytes < size / 2, `downloaded ${bytes} of ${size} bytes`);

  const all = await collect(dataset);
  assert.equal(all.length, 2 * BIG_ROWS, 'a full pass reads every group of both shards (a Parquet written by hyparquet-writer)');
  assert.equal(all[BIG_ROWS + 5]?.['text'], all[5]?.['text']);
});
