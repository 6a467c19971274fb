import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openDataset } from '../../datasets/open-dataset.js';
import { UserError } from '../../src/core/errors.js';
import { collect, FAST_RETRY, fixture, mockHubEnv } from '../helpers/dataset-files.js';
import { startMockHub, type MockHub } from '../helpers/mock-hub.js';

let hub: MockHub;
const shard = fixture('pyarrow-snappy.parquet');

before(async () => {
  hub = await startMockHub([
    { id: 'acme/reviews', splits: { default: { train: [shard], test: [shard] } } },
    { id: 'acme/multi', splits: { en: { train: [shard] }, fr: { train: [shard] } } },
    { id: 'acme/private', access: 'private', splits: { default: { train: [shard] } } },
    { id: 'acme/gated', access: 'gated', splits: { default: { train: [shard] } } },
  ]);
});
after(() => hub.close());

/** Asserts a UserError whose message and fix match. */
async function rejectsWith(promise: Promise<unknown>, message: RegExp, fix?: RegExp): Promise<UserError> {
  let caught: unknown;
  await assert.rejects(promise, (err) => {
    caught = err;
    return true;
  });
  assert.ok(caught instanceof UserError, String(caught));
  assert.match(caught.message, message);
  if (fix) assert.match(caught.fix ?? '', fix);
  return caught;
}

test('an unknown split or config gets an error listing the ones that exist', async () => {
  const env = mockHubEnv(hub.url);
  const open = (id: string, o: { config?: string; split?: string }) => openDataset(id, { ...o, hub: env, fetch: FAST_RETRY });
  await rejectsWith(open('acme/reviews', { split: 'validation' }), /acme\/reviews.*no split "validation"; its splits are: "train", "test"/u, /--split/u);
  await rejectsWith(open('acme/reviews', { config: 'default', split: 'validation' }), /no split "validation"; its splits are: "train", "test"/u);
  await rejectsWith(open('acme/reviews', { config: 'plain_text' }), /no config "plain_text"; its configs are: "default"/u, /--dataset-config/u);
  await rejectsWith(open('acme/multi', {}), /several configs; name one of: "en", "fr"/u, /--dataset-config/u);
  assert.equal((await collect(await open('acme/multi', { config: 'fr' }))).length, 120);
});

test('a dataset the Hub does not have (404) gets an error naming it', async () => {
  const env = mockHubEnv(hub.url);
  await rejectsWith(openDataset('acme/nope', { hub: env, fetch: FAST_RETRY }), /Dataset "acme\/nope" was not found on http:\/\/127\.0\.0\.1:\d+/u, /Check the id/u);
  await rejectsWith(openDataset('acme/nope', { config: 'x', hub: env, fetch: FAST_RETRY }), /Dataset "acme\/nope" was not found/u);
});

test('HTTP 401 and 403 get an error saying to set HF_TOKEN, and the token is sent when set', async () => {
  await rejectsWith(openDataset('acme/private', { hub: mockHubEnv(hub.url), fetch: FAST_RETRY }), /acme\/private/u, /set HF_TOKEN/u);
  await rejectsWith(openDataset('acme/private', { hub: mockHubEnv(hub.url, { token: 'hf_wrong' }), fetch: FAST_RETRY }), /access refused \(HTTP 401\)/u, /HF_TOKEN/u);
  await rejectsWith(openDataset('acme/gated', { hub: mockHubEnv(hub.url, { token: hub.token }), fetch: FAST_RETRY }), /access refused \(HTTP 403\).*restricted/u, /HF_TOKEN.*accept its terms/u);

  hub.requests.length = 0;
  const dataset = await openDataset('acme/private', { hub: mockHubEnv(hub.url, { token: hub.token }), fetch: FAST_RETRY });
  assert.equal((await collect(dataset)).length, 120);
  assert.ok(hub.requests.length > 0 && hub.requests.every((r) => r.authorization === `Bearer ${hub.token}`), 'every request carries the token');
});
