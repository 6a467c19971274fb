import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { UserError } from '../../src/core/errors.js';
import { openDataset } from '../../datasets/open-dataset.js';

function userError(check: (err: UserError) => void): (err: unknown) => boolean {
  return (err) => {
    assert.ok(err instanceof UserError, String(err));
    check(err);
    return true;
  };
}

test('a missing path, an unsupported format or an empty file is a UserError saying what to do', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-missing-'));
  try {
    const missing = join(dir, 'nope.jsonl');
    await assert.rejects(openDataset(missing), userError((err) => {
      assert.ok(err.message.includes(missing), err.message);
      assert.match(err.fix ?? '', /Check the path/);
      assert.match(err.fix ?? '', /\.parquet.*\.arrow.*\.jsonl.*\.csv.*\.tsv/);
    }));

    // A missing path that looks like a Hub id goes to the Hub: see dataset-hub-errors.test.ts.
    const missingCsv = join(dir, 'org', 'data.csv');
    await assert.rejects(openDataset(missingCsv), userError((err) => assert.match(err.fix ?? '', /Hugging Face dataset is given by its id/)));

    const parquet = join(dir, 'train.parquet');
    await writeFile(parquet, 'PAR1');
    await assert.rejects((await openDataset(parquet)).columns(), userError((err) => {
      assert.match(err.message, /train\.parquet: not a readable Parquet file/);
    }));

    const xlsx = join(dir, 'sheet.xlsx');
    await writeFile(xlsx, 'x');
    await assert.rejects(openDataset(xlsx), userError((err) => assert.match(err.fix ?? '', /JSON Lines.*CSV.*TSV/)));

    const empty = join(dir, 'empty.csv');
    await writeFile(empty, '');
    await assert.rejects(openDataset(empty), userError((err) => assert.match(err.message, /empty\.csv is empty/)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
