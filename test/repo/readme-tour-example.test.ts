import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import { useTestCache } from '../helpers/test-cache.js';

/** The tour's one code example is the fixture verbatim, so a change to the API that breaks it fails here, not in a reader's hands. */
test('README shows Benchmark.run on the default model, and that example runs', async () => {
  const readme = readFileSync(join(packageRoot(), 'README.md'), 'utf8');
  const example = readFileSync(join(packageRoot(), 'test', 'helpers', 'readme-tour-example.ts'), 'utf8').trim();
  assert.ok(readme.includes(example), 'README.md must contain test/helpers/readme-tour-example.ts verbatim');

  useTestCache();
  const { cells } = await import('../helpers/readme-tour-example.js');
  assert.deepEqual(cells.map((c) => [c.engine, c.batchSize, c.state]), [
    ['onnx-cpu', 1, 'completed'],
    ['onnx-cpu', 8, 'completed'],
    ['onnx-wasm', 1, 'completed'],
    ['onnx-wasm', 8, 'completed'],
  ]);
});
