import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { crc32c, maskCrc, tensorBundle } from '../../src/models/tf-export/tensor-bundle.js';
import { readBundle, readSstable } from '../helpers/tensor-bundle-read.js';
import { testOutputDir } from '../helpers/test-cache.js';

test('crc32c is CRC-32C (Castagnoli): the standard check value of "123456789", and extends across chunks', () => {
  const bytes = new TextEncoder().encode('123456789');
  assert.equal(crc32c(bytes), 0xe3069283);
  assert.equal(crc32c(bytes.subarray(4), crc32c(bytes.subarray(0, 4))), 0xe3069283);
  assert.equal(crc32c(new Uint8Array(32)), 0x8a9136aa, 'RFC 3720 B.4: 32 bytes of zeros');
  // leveldb's mask: rotate right by 15, add 0xa282ead8.
  assert.equal(maskCrc(0), 0xa282ead8);
});

test('a tensor bundle reads back: header first, tensors in key order past one restart interval, each at its offset with its CRC', () => {
  // 40 keys sharing prefixes: prefix compression and a restart point every 16 entries are exercised; given out of order.
  const tensors = Array.from({ length: 40 }, (_, i) => {
    const data = Float32Array.from({ length: 3 + i }, (_, k) => i * 100 + k);
    return { key: `layer.${String(39 - i).padStart(2, '0')}.weight`, dtype: 1, dims: [3 + i], bytes: new Uint8Array(data.buffer) };
  });
  const files = tensorBundle(tensors);
  const dir = testOutputDir('tensor-bundle');
  mkdirSync(join(dir, 'variables'));
  writeFileSync(join(dir, 'variables', 'variables.index'), files.index);
  writeFileSync(join(dir, 'variables', 'variables.data-00000-of-00001'), Buffer.concat(files.data.map((d) => Buffer.from(d))));
  const table = readSstable(files.index);
  assert.equal(table[0]?.[0], '', 'the header entry sits under the empty key');
  const bundle = readBundle(dir);
  assert.equal(bundle.header.num_shards, 1);
  assert.equal(bundle.header.version?.producer, 1);
  assert.deepEqual(bundle.keys, tensors.map((t) => t.key).sort());
  for (const t of tensors) {
    const e = bundle.entries.get(t.key);
    assert.deepEqual(e && { dtype: e.dtype, dims: e.dims, size: e.size }, { dtype: 1, dims: [...t.dims], size: t.bytes.length }, t.key);
  }
  assert.throws(() => tensorBundle([{ key: '', dtype: 1, dims: [1], bytes: new Uint8Array(4) }]), /non-empty name/);
});

test('a flipped byte in the index is caught by its block CRC, and one in the data by its entry CRC', () => {
  const files = tensorBundle([{ key: 'w', dtype: 1, dims: [2], bytes: new Uint8Array(Float32Array.of(1, 2).buffer) }]);
  const index = files.index.slice();
  index[3] = (index[3] as number) ^ 0xff;
  assert.throws(() => readSstable(index), /CRC/);
  const dir = testOutputDir('tensor-bundle-crc');
  mkdirSync(join(dir, 'variables'));
  writeFileSync(join(dir, 'variables', 'variables.index'), files.index);
  writeFileSync(join(dir, 'variables', 'variables.data-00000-of-00001'), Uint8Array.of(0, 0, 0x80, 0x3f, 0, 0, 0, 0x41));
  assert.throws(() => readBundle(dir), /data CRC does not match/);
});
