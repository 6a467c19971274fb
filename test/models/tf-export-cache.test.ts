import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ensureNativeExport, nativeCacheRoot } from '../../src/models/tf-export/native-export.js';
import { readHfFixture } from '../helpers/hf-fixtures.js';
import { testOutputDir } from '../helpers/test-cache.js';

const fixture = readHfFixture('distilbert');

test('an engine\'s format is written once into the content-addressed cache, as a model folder, and reused', async () => {
  const cache = testOutputDir('native-cache');
  const first = await ensureNativeExport(fixture.onnxPath, 'graph-model', cache);
  assert.equal(first.fromCache, false);
  assert.equal(first.dir, join(nativeCacheRoot(cache), first.dir.split('/').pop() as string));
  assert.match(first.dir.split('/').pop() ?? '', /^[0-9a-f]{64}$/, 'named by the sha256 of source, format and exporter version');
  for (const f of ['model.json', 'config.json', 'tokenizer.json', 'inferbench-export.json']) assert.ok(existsSync(join(first.dir, f)), f);
  const again = await ensureNativeExport(fixture.onnxPath, 'graph-model', cache);
  assert.equal(again.fromCache, true);
  assert.equal(again.dir, first.dir);
  const saved = await ensureNativeExport(fixture.onnxPath, 'saved-model', cache);
  assert.notEqual(saved.dir, first.dir, 'each format has its own entry');
  assert.ok(existsSync(join(saved.dir, 'saved_model.pb')));
  assert.deepEqual(readdirSync(nativeCacheRoot(cache)).filter((n) => n.includes('.partial-')), [], 'no partial folder is left behind');
});

test('two opens exporting the same graph at once both get the one complete folder', async () => {
  const cache = testOutputDir('native-cache-race');
  const [a, b] = await Promise.all([ensureNativeExport(fixture.onnxPath, 'saved-model', cache), ensureNativeExport(fixture.onnxPath, 'saved-model', cache)]);
  assert.equal(a.dir, b.dir);
  assert.ok(existsSync(join(a.dir, 'saved_model.pb')));
  assert.deepEqual(readdirSync(nativeCacheRoot(cache)).length, 1);
});
