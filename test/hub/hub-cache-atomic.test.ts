import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { readRef, snapshotPath, writeFileAtomic, writeRef, writeStreamAtomic } from '../../src/hub/hub-cache.js';
import { testOutputDir } from '../helpers/test-cache.js';

async function* chunks(parts: readonly string[], failAfter?: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < parts.length; i++) {
    if (i === failAfter) throw new Error('connection reset');
    yield new TextEncoder().encode(parts[i]);
  }
}

test('cache writes are atomic: a cut or short download never appears under the final name', async () => {
  const dir = testOutputDir('hub-cache-atomic');
  const target = join(dir, 'blobs', 'abc123');

  await assert.rejects(writeStreamAtomic(target, chunks(['aaa', 'bbb', 'ccc'], 2)), /connection reset/u);
  await assert.rejects(writeStreamAtomic(target, chunks(['aaa', 'bbb']), 9), /stopped after 6 of 9 bytes/u);
  assert.deepEqual(await readdir(join(dir, 'blobs')), [], 'neither the file nor a temporary file is left');

  assert.equal(await writeStreamAtomic(target, chunks(['aaa', 'bbb', 'ccc']), 9), 9);
  assert.equal(await readFile(target, 'utf8'), 'aaabbbccc');

  await writeFileAtomic(target, 'replaced');
  assert.equal(await readFile(target, 'utf8'), 'replaced');
  assert.deepEqual(await readdir(join(dir, 'blobs')), ['abc123']);

  const repo = join(dir, 'datasets--acme--reviews');
  assert.equal(await readRef(repo, 'refs/convert/parquet'), null);
  await writeRef(repo, 'refs/convert/parquet', 'deadbeef');
  assert.equal(await readFile(join(repo, 'refs', 'refs', 'convert', 'parquet'), 'utf8'), 'deadbeef', 'the same layout as huggingface_hub');
  assert.equal(await readRef(repo, 'refs/convert/parquet'), 'deadbeef');
  assert.equal(snapshotPath(repo, 'deadbeef', 'default/train/0000.parquet'), join(repo, 'snapshots', 'deadbeef', 'default', 'train', '0000.parquet'));
  assert.throws(() => snapshotPath(repo, 'deadbeef', '../../etc/passwd'), /unsafe/u);
});
