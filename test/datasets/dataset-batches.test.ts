import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Dataset } from '../../datasets/dataset.js';

const tenRows = new Dataset(
  'ten',
  async function* () {
    for (let i = 0; i < 10; i++) yield { id: i };
  },
  async () => ['id'],
);

test('batches groups rows in order, keeps a short last batch and rejects invalid sizes', async () => {
  const sizes = async (size: number): Promise<number[]> => {
    const out: number[] = [];
    for await (const batch of tenRows.batches(size)) out.push(batch.length);
    return out;
  };
  assert.deepEqual(await sizes(3), [3, 3, 3, 1]);
  assert.deepEqual(await sizes(5), [5, 5]);
  assert.deepEqual(await sizes(1), Array(10).fill(1));
  assert.deepEqual(await sizes(64), [10]);

  const ids: unknown[] = [];
  for await (const batch of tenRows.batches(4)) ids.push(...batch.map((r) => r['id']));
  assert.deepEqual(ids, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

  for (const bad of [0, -1, 2.5, Number.NaN]) {
    assert.throws(() => tenRows.batches(bad), { name: 'UserError' }, `size ${bad}`);
  }
});
