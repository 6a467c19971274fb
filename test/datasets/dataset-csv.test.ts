import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { DataRow } from '../../datasets/dataset.js';
import { openDataset } from '../../datasets/open-dataset.js';

async function rowsOf(path: string): Promise<DataRow[]> {
  const rows: DataRow[] = [];
  for await (const row of await openDataset(path)) rows.push(row);
  return rows;
}

test('CSV follows RFC 4180 quoting: commas, doubled quotes and line breaks inside quotes', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-csv-'));
  try {
    const path = join(dir, 'reviews.csv');
    await writeFile(
      path,
      '\uFEFFid,text,label\r\n' +
        '1,plain text,1\r\n' +
        '2,"comma, inside",0\r\n' +
        '3,"she said ""wow""",1\r\n' +
        '4,"two\nlines",0\r\n' +
        '5,"",1\r\n' +
        '\r\n' +
        '6,unquoted "quote" kept, 0 \n' +
        '7,"last row without newline",1',
    );
    const dataset = await openDataset(path);
    assert.deepEqual(await dataset.columns(), ['id', 'text', 'label']);
    const rows = await rowsOf(path);
    assert.deepEqual(
      rows.map((r) => r['text']),
      ['plain text', 'comma, inside', 'she said "wow"', 'two\nlines', '', 'unquoted "quote" kept', 'last row without newline'],
    );
    assert.deepEqual(rows.map((r) => r['label']), [1, 0, 1, 0, 1, 0, 1], 'numeric labels become numbers');
    assert.equal(rows[0]?.['id'], '1', 'other columns stay strings');

    const unclosed = join(dir, 'unclosed.csv');
    await writeFile(unclosed, 'text,label\nfine,1\n"never closed,0\nmore,1\n');
    await assert.rejects(rowsOf(unclosed), (err: Error) => {
      assert.equal(err.name, 'UserError');
      assert.match(err.message, /unclosed\.csv, line 3: a quoted field is never closed/);
      return true;
    });

    const ragged = join(dir, 'ragged.csv');
    await writeFile(ragged, 'text,label\nok,1\ntoo,many,fields\n');
    await assert.rejects(rowsOf(ragged), /ragged\.csv, line 3: 3 fields, but the header has 2/);

    const headerOnly = join(dir, 'header-only.csv');
    await writeFile(headerOnly, 'text,label\n');
    await assert.rejects(rowsOf(headerOnly), /header row but no data rows/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
