import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDataset } from '../../datasets/open-dataset.js';

test('a folder of shards streams as one dataset in file-name order', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-folder-'));
  try {
    const shards = join(dir, 'shards');
    await mkdir(shards);
    await writeFile(join(shards, 'train-00001-of-00002.jsonl'), '{"text": "c", "label": 0}\n{"text": "d", "label": 1}\n');
    await writeFile(join(shards, 'train-00000-of-00002.jsonl'), '{"text": "a", "label": 1}\n{"text": "b", "label": 0}\n');
    await writeFile(join(shards, 'README.md'), '# card\n');
    await writeFile(join(shards, '.DS_Store'), 'x');
    const dataset = await openDataset(shards);
    assert.deepEqual(await dataset.columns(), ['text', 'label']);
    const texts: unknown[] = [];
    for await (const row of dataset) texts.push(row['text']);
    assert.deepEqual(texts, ['a', 'b', 'c', 'd']);
    const middle: unknown[] = [];
    for await (const row of dataset.skip(1).take(2)) middle.push(row['text']);
    assert.deepEqual(middle, ['b', 'c'], 'take and skip cross shard boundaries');

    const mixed = join(dir, 'mixed');
    await mkdir(mixed);
    await writeFile(join(mixed, 'a.jsonl'), '{"text": "a"}\n');
    await writeFile(join(mixed, 'b.csv'), 'text\nb\n');
    await assert.rejects(openDataset(mixed), (err: Error) => {
      assert.equal(err.name, 'UserError');
      assert.match(err.message, /mixes file types.*Found: a\.jsonl, b\.csv/);
      return true;
    });

    const none = join(dir, 'none');
    await mkdir(none);
    await writeFile(join(none, 'data.xlsx'), 'x');
    await assert.rejects(openDataset(none), (err: Error & { fix?: string }) => {
      assert.match(err.message, /No data files in folder .*found: data\.xlsx/);
      assert.match(err.fix ?? '', /Parquet \(\.parquet\), Arrow IPC/);
      return true;
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
