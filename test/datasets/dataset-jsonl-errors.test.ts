import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { UserError } from '../../src/core/errors.js';
import { openDataset } from '../../datasets/open-dataset.js';

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
