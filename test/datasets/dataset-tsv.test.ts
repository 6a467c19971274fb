import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { resolveColumns } from '../../datasets/columns.js';
import type { DataRow } from '../../datasets/dataset.js';
import { openDataset } from '../../datasets/open-dataset.js';

async function rowsOf(path: string): Promise<DataRow[]> {
  const rows: DataRow[] = [];
  for await (const row of await openDataset(path)) rows.push(row);
  return rows;
}

test('TSV reads header-less "text<TAB>label" lines as text and label columns', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-tsv-'));
  try {
    const headerless = join(dir, 'sentences.tsv');
    await writeFile(headerless, 'Loved every minute.  \t1\r\nCold food, slow service.\t0\r\n\r\nA "quoted" word\twith a tab\t1\n');
    const dataset = await openDataset(headerless);
    assert.deepEqual(await dataset.columns(), ['text', 'label']);
    assert.deepEqual(await rowsOf(headerless), [
      { text: 'Loved every minute.  ', label: 1 },
      { text: 'Cold food, slow service.', label: 0 },
      { text: 'A "quoted" word\twith a tab', label: 1 },
    ]);

    const withHeader = join(dir, 'sst2.tsv');
    await writeFile(withHeader, 'sentence\tlabel\nit is a charming journey\t1\nbland\t0\n');
    const sst2 = await openDataset(withHeader);
    assert.deepEqual(resolveColumns(await sst2.columns()), { text: 'sentence', label: 'label' });
    assert.deepEqual(await rowsOf(withHeader), [
      { sentence: 'it is a charming journey', label: 1 },
      { sentence: 'bland', label: 0 },
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
