import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Dataset } from '../../datasets/dataset.js';

test('transformations are lazy and every pass re-opens the source with the same rows', async () => {
  let opens = 0;
  const dataset = new Dataset(
    'letters',
    async function* () {
      opens++;
      yield* [{ text: 'a' }, { text: 'bb' }, { text: 'ccc' }, { text: 'dddd' }];
    },
    async () => ['text'],
  );
  const pipeline = dataset
    .filter((row) => (row['text'] as string).length !== 2)
    .map((row, index) => ({ ...row, index, length: (row['text'] as string).length }))
    .skip(1);
  assert.equal(opens, 0, 'building a pipeline reads nothing');
  assert.equal(pipeline.name, 'letters');

  const pass = async (): Promise<unknown[]> => {
    const out: unknown[] = [];
    for await (const row of pipeline) out.push(row);
    return out;
  };
  const first = await pass();
  assert.deepEqual(first, [
    { text: 'ccc', index: 1, length: 3 },
    { text: 'dddd', index: 2, length: 4 },
  ]);
  assert.deepEqual(await pass(), first);
  assert.equal(opens, 2);
  assert.deepEqual(await pipeline.columns(), ['text', 'index', 'length'], 'mapped columns come from the mapped rows');
});
