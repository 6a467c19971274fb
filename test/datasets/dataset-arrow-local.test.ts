import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDataset } from '../../datasets/open-dataset.js';
import { UserError } from '../../src/core/errors.js';
import { collect, embeddedRows, fixture } from '../helpers/dataset-files.js';

test('Arrow IPC files and streams, and the folders datasets.save_to_disk writes, stream their rows', async () => {
  const expected = embeddedRows(120);
  for (const name of ['pyarrow-file.arrow', 'pyarrow-stream.arrow', 'save-to-disk']) {
    const dataset = await openDataset(fixture(name));
    assert.deepEqual(await dataset.columns(), ['text', 'label', 'source'], name);
    assert.deepEqual(await collect(dataset), expected, name);
  }
  const early = await collect((await openDataset(fixture('save-to-disk'))).take(3));
  assert.deepEqual(early, expected.slice(0, 3));
});

test('a DatasetDict.save_to_disk folder reads the requested split (default train) and lists its splits otherwise', async () => {
  const expected = embeddedRows(120);
  const train = await openDataset(fixture('dataset-dict'));
  assert.deepEqual(await collect(train), expected.slice(0, 100));
  assert.deepEqual(await collect(await openDataset(fixture('dataset-dict'), { split: 'test' })), expected.slice(100));
  await assert.rejects(openDataset(fixture('dataset-dict'), { split: 'validation' }), (err) => {
    assert.ok(err instanceof UserError);
    assert.match(err.message, /has no split "validation"; its splits are: "train", "test"/u);
    assert.match(err.fix ?? '', /--split/u);
    return true;
  });
});
