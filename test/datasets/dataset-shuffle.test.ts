import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Dataset, type DataRow } from '../../datasets/dataset.js';

function counted(n: number): { dataset: Dataset; reads: () => number } {
  let reads = 0;
  const dataset = new Dataset(
    'numbers',
    async function* () {
      for (let i = 0; i < n; i++) {
        reads++;
        yield { id: i };
      }
    },
    async () => ['id'],
  );
  return { dataset, reads: () => reads };
}

async function ids(rows: AsyncIterable<DataRow>): Promise<number[]> {
  const out: number[] = [];
  for await (const row of rows) out.push(row['id'] as number);
  return out;
}

test('shuffle is a deterministic permutation per seed and holds at most bufferSize rows', async () => {
  const { dataset, reads } = counted(500);
  const a = dataset.shuffle({ seed: 42, bufferSize: 50 });
  const first = await ids(a);
  assert.deepEqual(await ids(a), first, 'each pass gives the same order');
  assert.deepEqual(await ids(dataset.shuffle({ seed: 42, bufferSize: 50 })), first, 'same seed, same order');
  assert.notDeepEqual(await ids(dataset.shuffle({ seed: 43, bufferSize: 50 })), first, 'another seed, another order');
  assert.deepEqual([...first].sort((x, y) => x - y), Array.from({ length: 500 }, (_, i) => i), 'a permutation');
  assert.notDeepEqual(first, Array.from({ length: 500 }, (_, i) => i), 'actually shuffled');

  // Bounded buffer: at every row handed out, at most bufferSize + 1 rows have been read beyond those emitted.
  const { dataset: source, reads: sourceReads } = counted(500);
  let emitted = 0;
  for await (const row of source.shuffle({ seed: 1, bufferSize: 50 })) {
    void row;
    emitted++;
    assert.ok(sourceReads() - emitted <= 50, `read ${sourceReads()} while emitting ${emitted}`);
  }
  // With take, the source is read no further than the buffer needs.
  const { dataset: lazy, reads: lazyReads } = counted(10_000);
  assert.equal((await ids(lazy.shuffle({ seed: 1, bufferSize: 100 }).take(5))).length, 5);
  assert.ok(lazyReads() <= 105, `read ${lazyReads()} rows for 5`);
  void reads;

  assert.throws(() => dataset.shuffle({ seed: 1.5 }), { name: 'UserError' });
  assert.throws(() => dataset.shuffle({ seed: 1, bufferSize: 0 }), { name: 'UserError' });
});
