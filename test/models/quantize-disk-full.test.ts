import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readHfFixture } from '../helpers/hf-fixtures.js';
import { testOutputDir } from '../helpers/test-cache.js';
import { ensureQuantizedVariant, quantizedCacheRoot } from '../../src/models/quantize/quantize-cache.js';
import { nodeWriteFs, type ModelWriteFs } from '../../src/core/onnx/onnx-file.js';

/** Every file under `dir`, relative. */
function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

test('a full disk while writing a variant leaves no partial file in the cache, and the next run writes it whole', async () => {
  const cacheRoot = testOutputDir('quantize-disk-full');
  const fixture = readHfFixture('bert');
  let written = 0;
  const full: ModelWriteFs = {
    ...nodeWriteFs,
    async open(path) {
      const handle = await nodeWriteFs.open(path);
      return {
        async write(data) {
          written += data.byteLength;
          if (written > 50_000) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
          await handle.write(data);
        },
        close: () => handle.close(),
      };
    },
  };
  await assert.rejects(ensureQuantizedVariant({ sourceDir: fixture.dir, dtype: 'q8', cacheRoot, fs: full }), { code: 'ENOSPC' });
  assert.ok(written > 50_000, 'the writer never reached the failing write');
  const left = files(quantizedCacheRoot(cacheRoot));
  assert.deepEqual(left.filter((f) => /\.onnx|partial|quantize\.json/.test(f)), [], `left behind: ${left.join(', ')}`);

  const made = await ensureQuantizedVariant({ sourceDir: fixture.dir, dtype: 'q8', cacheRoot });
  assert.ok('dir' in made && !made.fromCache);
  const again = await ensureQuantizedVariant({ sourceDir: fixture.dir, dtype: 'q8', cacheRoot });
  assert.ok('dir' in again && again.fromCache && again.dir === made.dir);
  assert.ok(files(made.dir).includes(join('onnx', 'model_quantized.onnx')));
});
