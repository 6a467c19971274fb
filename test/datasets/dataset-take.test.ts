import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Dataset } from '../../datasets/dataset.js';
import { openDataset } from '../../datasets/open-dataset.js';

test('take stops reading the source and closes it once satisfied', async () => {
  let reads = 0;
  let closed = 0;
  const dataset = new Dataset(
    'endless',
    async function* () {
      try {
        for (let i = 0; ; i++) {
          reads++;
          yield { id: i };
        }
      } finally {
        closed++;
      }
    },
    async () => ['id'],
  );

  const ids: unknown[] = [];
  for await (const row of dataset.filter((r) => (r['id'] as number) % 2 === 0).take(3)) {
    ids.push(row['id']);
    if (ids.length === 3) assert.equal(closed, 1, 'closed before the last row is handed on');
  }
  assert.deepEqual(ids, [0, 2, 4]);
  assert.equal(reads, 5);
  assert.equal(closed, 1);

  reads = 0;
  const batches: number[] = [];
  for await (const batch of dataset.skip(2).take(7).batches(3)) batches.push(batch.length);
  assert.deepEqual(batches, [3, 3, 1]);
  assert.equal(reads, 9);
  assert.equal(closed, 2);

  reads = 0;
  for await (const row of dataset.take(0)) assert.fail(`unexpected ${JSON.stringify(row)}`);
  assert.equal(reads, 0, 'take(0) never opens the source');

  const dir = await mkdtemp(join(tmpdir(), 'inferbench-take-'));
  try {
    const lines = Array.from({ length: 50_000 }, (_, i) => JSON.stringify({ text: `row ${i}`, label: i % 2 }));
    await writeFile(join(dir, 'big.jsonl'), lines.join('\n'));
    const file = await openDataset(join(dir, 'big.jsonl'));
    const texts: unknown[] = [];
    for await (const row of file.take(2)) texts.push(row['text']);
    assert.deepEqual(texts, ['row 0', 'row 1']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
