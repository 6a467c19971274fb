import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { UserError } from '../src/errors.js';
import { openDataset } from '../datasets/open-dataset.js';

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
      assert.match(err.fix ?? '', /\.jsonl.*\.csv.*\.tsv/);
    }));

    await assert.rejects(openDataset('stanfordnlp/sst2'), userError((err) => assert.match(err.fix ?? '', /Hugging Face Hub/)));

    const parquet = join(dir, 'train.parquet');
    await writeFile(parquet, 'PAR1');
    await assert.rejects(openDataset(parquet), userError((err) => {
      assert.match(err.message, /parquet files are not supported yet/);
      assert.match(err.fix ?? '', /Parquet and Arrow support is planned/);
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
