import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import { useTestCache } from '../helpers/test-cache.js';

test('docs/api.md (linked from README) shows Benchmark.execute on a session the user opened, with what builds its inputs, and that example runs', async () => {
  const doc = readFileSync(join(packageRoot(), 'docs', 'api.md'), 'utf8');
  const example = readFileSync(join(packageRoot(), 'test', 'helpers', 'readme-execute-example.ts'), 'utf8').trim();
  assert.ok(doc.includes(example), 'docs/api.md must contain test/helpers/readme-execute-example.ts verbatim');
  assert.doesNotMatch(doc, /Benchmark\.execute\(session, \{ name \}\)/, 'no call shown that throws "has no way to build model inputs"');

  useTestCache();
  const { measureMySession } = await import('../helpers/readme-execute-example.js');
  const cells = await measureMySession();
  assert.deepEqual(cells.map((c) => [c.engine, c.batchSize, c.state]), [['onnx-cpu, 1 thread', 1, 'completed'], ['onnx-cpu, 1 thread', 8, 'completed']]);
});
