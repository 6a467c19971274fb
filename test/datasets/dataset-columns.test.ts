import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LABEL_COLUMN_CANDIDATES, resolveColumns, TEXT_COLUMN_CANDIDATES } from '../../datasets/columns.js';
import { Dataset } from '../../datasets/dataset.js';
import { UserError } from '../../src/core/errors.js';

test('column resolution detects common names and errors list the columns found', async () => {
  assert.deepEqual(resolveColumns(['id', 'sentence', 'label']), { text: 'sentence', label: 'label' });
  assert.deepEqual(resolveColumns(['Review', 'Sentiment']), { text: 'Review', label: 'Sentiment' });
  assert.deepEqual(resolveColumns(['text']), { text: 'text', label: null });
  assert.deepEqual(resolveColumns(['body']), { text: 'body', label: null }, 'a single column is the text');
  assert.deepEqual(resolveColumns(['body', 'stars'], { text: 'body', label: 'stars' }), { text: 'body', label: 'stars' });
  assert.equal(TEXT_COLUMN_CANDIDATES[0], 'text');
  assert.equal(LABEL_COLUMN_CANDIDATES[0], 'label');

  const listsColumns = (flag: string) => (err: unknown) => {
    assert.ok(err instanceof UserError, String(err));
    assert.match(err.message, /"body", "stars", "id"/);
    assert.ok(err.fix?.includes(flag), err.fix);
    return true;
  };
  assert.throws(() => resolveColumns(['body', 'stars', 'id']), listsColumns('--text-column'));
  assert.throws(() => resolveColumns(['body', 'stars', 'id'], { text: 'txt' }), listsColumns('--text-column'));
  assert.throws(() => resolveColumns(['body', 'stars', 'id'], { text: 'body', label: 'label' }), listsColumns('--label-column'));

  const dataset = new Dataset('two-columns', async function* () {
    yield { text: 'hello', label: 1 };
  }, async () => ['text', 'label']);
  assert.deepEqual(await dataset.select(['label']).columns(), ['label']);
  for await (const row of dataset.select(['label', 'text'])) assert.deepEqual(Object.keys(row), ['label', 'text']);
  const unknown = dataset.select(['text', 'stars']);
  await assert.rejects(unknown.columns(), /no column "stars"; its columns are: text, label/);
  await assert.rejects(async () => {
    for await (const row of unknown) void row;
  }, { name: 'UserError' });
});
