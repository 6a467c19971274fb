import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { UserError } from '../../src/core/errors.js';
import { openDataset } from '../../datasets/open-dataset.js';
import { readJsonlFile } from '../../datasets/local-files.js';

async function drain(path: string): Promise<number> {
  let n = 0;
  for await (const row of await openDataset(path)) if (row) n++;
  return n;
}

test('a malformed JSONL line is a UserError naming the file and line number', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-jsonl-'));
  try {
    const path = join(dir, 'data.jsonl');
    await writeFile(path, '{"text": "fine", "label": 1}\n\n{"text": "broken", "label": \n{"text": "never read", "label": 0}\n');
    await assert.rejects(drain(path), (err: unknown) => {
      assert.ok(err instanceof UserError);
      assert.ok(err.message.includes(`${path}, line 3: not valid JSON`), err.message);
      assert.match(err.fix ?? '', /line 3/);
      return true;
    });

    const notObject = join(dir, 'array.ndjson');
    await writeFile(notObject, '{"text": "ok", "label": "1"}\n["text", 0]\n');
    await assert.rejects(drain(notObject), /array\.ndjson, line 2: expected a JSON object, found an array/);

    const stringLabel = join(dir, 'labels.jsonl');
    await writeFile(stringLabel, '{"text": "ok", "label": "1"}\n');
    for await (const row of await openDataset(stringLabel)) assert.equal(row['label'], 1, 'numeric-looking labels become numbers');

    const blank = join(dir, 'blank.jsonl');
    await writeFile(blank, '\n\n');
    await assert.rejects(drain(blank), /has no rows/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a JSONL file read whole gives the stream\'s rows and the stream\'s errors: blank lines, a BOM and CRLF endings, bad lines by number', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-jsonl-whole-'));
  try {
    const good = join(dir, 'good.jsonl');
    await writeFile(good, '\uFEFF{"text": "a", "label": "1"}\r\n\r\n{"text": "b", "label": 0}\r{"text": "c"}');
    const streamed = [];
    for await (const row of await openDataset(good)) streamed.push(row);
    assert.deepEqual(await readJsonlFile(good), streamed);
    assert.deepEqual(streamed.map((r) => r['text']), ['a', 'b', 'c']);

    const broken = join(dir, 'broken.jsonl');
    await writeFile(broken, '{"text": "fine", "label": 1}\n\n{"text": "broken", "label": \n');
    await assert.rejects(readJsonlFile(broken), (err: unknown) => err instanceof UserError && err.message.includes(`${broken}, line 3: not valid JSON`));
    const array = join(dir, 'array.jsonl');
    await writeFile(array, '{"text": "ok"}\n["text", 0]\n');
    await assert.rejects(readJsonlFile(array), /array\.jsonl, line 2: expected a JSON object, found an array/);
    const blank = join(dir, 'blank.jsonl');
    await writeFile(blank, '\n\n');
    await assert.rejects(readJsonlFile(blank), /has no rows/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
