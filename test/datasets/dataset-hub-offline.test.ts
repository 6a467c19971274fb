import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { parquetWriteFile } from 'hyparquet-writer';
import { openDataset } from '../../datasets/open-dataset.js';
import { UserError } from '../../src/core/errors.js';
import { collect, embeddedRows, FAST_RETRY, fixture, mockHubEnv } from '../helpers/dataset-files.js';
import { startMockHub, type MockHub } from '../helpers/mock-hub.js';
import { testOutputDir } from '../helpers/test-cache.js';

let hub: MockHub;
let big: string;

before(async () => {
  // Several row groups larger than the footer fetch, so a partial pass leaves groups uncached.
  big = join(testOutputDir('hub-offline'), 'big.parquet');
  const texts = embeddedRows(3000);
  parquetWriteFile({
    filename: big,
    columnData: [{ name: 'text', data: Array.from({ length: 12_000 }, (_, i) => `${String(texts[i % texts.length]?.['text'])} #${i}`), type: 'STRING' }],
    rowGroupSize: 3000,
  });
  hub = await startMockHub([
    { id: 'acme/reviews', splits: { default: { train: [fixture('pyarrow-snappy.parquet')] } } },
    { id: 'acme/big', splits: { default: { train: [big] } } },
  ]);
});
after(() => hub.close());

function offlineError(check: RegExp): (err: unknown) => boolean {
  return (err) => {
    assert.ok(err instanceof UserError, String(err));
    assert.match(err.message, /HF_HUB_OFFLINE is set/u);
    assert.match(err.message, check);
    assert.match(err.fix ?? '', /once with network access/u);
    return true;
  };
}

test('HF_HUB_OFFLINE=1 reads what an online run cached, without a single request', async () => {
  const online = mockHubEnv(hub.url);
  assert.deepEqual(await collect(await openDataset('acme/reviews', { hub: online, fetch: FAST_RETRY })), embeddedRows(120));
  const offline = { ...online, offline: true };
  hub.requests.length = 0;
  assert.deepEqual(await collect(await openDataset('acme/reviews', { hub: offline })), embeddedRows(120));
  assert.deepEqual(await collect(await openDataset('acme/reviews', { config: 'default', split: 'train', hub: offline })), embeddedRows(120));
  assert.equal(hub.requests.length, 0, 'offline mode opens no connection');
});

test('HF_HUB_OFFLINE=1 with something not cached is a clear error naming it', async () => {
  const online = mockHubEnv(hub.url);
  const offline = { ...online, offline: true };
  await assert.rejects(openDataset('acme/reviews', { hub: offline }), offlineError(/Parquet listing of dataset "acme\/reviews"/u));

  const dataset = await openDataset('acme/big', { hub: online, fetch: FAST_RETRY });
  assert.equal((await collect(dataset.take(5))).length, 5);
  const cachedOnly = await openDataset('acme/big', { hub: offline });
  assert.equal((await collect(cachedOnly.take(5))).length, 5, 'the rows read online are there offline');
  await assert.rejects(collect(cachedOnly), offlineError(/bytes \d+ to \d+ of shard 0 of dataset "acme\/big"/u));
  await assert.rejects(openDataset('acme/big', { split: 'test', hub: offline }), /no split "test"; its splits are: "train"/u, 'the cached listing still explains an unknown split');
  await assert.rejects(openDataset('acme/big', { config: 'default', split: 'validation', hub: offline }), /no split "validation"/u);
});

test('a complete copy in the huggingface_hub snapshot folder is read instead of the network', async () => {
  const env = mockHubEnv(hub.url);
  const snapshot = join(env.cacheDir, 'datasets--acme--reviews', 'snapshots', hub.commit, 'default', 'train');
  await mkdir(snapshot, { recursive: true });
  await copyFile(fixture('pyarrow-snappy.parquet'), join(snapshot, '0000.parquet'));
  hub.requests.length = 0;
  assert.deepEqual(await collect(await openDataset('acme/reviews', { hub: env, fetch: FAST_RETRY })), embeddedRows(120));
  assert.ok(hub.requests.every((r) => r.method === 'HEAD' || !r.path.includes('/resolve/')), 'no bytes downloaded');
});
