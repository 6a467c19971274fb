import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import { useTestCache } from '../helpers/test-cache.js';

test('docs/api.md (linked from README) shows the custom BenchmarkModel subclass that this test runs', async () => {
  const root = packageRoot();
  const doc = readFileSync(join(root, 'docs', 'api.md'), 'utf8');
  const example = readFileSync(join(root, 'test', 'helpers', 'readme-example.ts'), 'utf8').trim();
  assert.ok(doc.includes(example), 'docs/api.md must contain test/helpers/readme-example.ts verbatim');

  useTestCache();
  const { main } = await import('../helpers/readme-example.js');
  const cells = await main();
  assert.equal(cells.length, 4);
  for (const c of cells) assert.equal(c.state, 'completed', `${c.engine}/${c.batchSize}: ${JSON.stringify(c)}`);
});
