import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import { useTestCache } from '../helpers/test-cache.js';

test('README shows the custom BenchmarkModel subclass that this test runs', async () => {
  const root = packageRoot();
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const example = readFileSync(join(root, 'test', 'helpers', 'readme-example.ts'), 'utf8').trim();
  assert.ok(readme.includes(example), 'README.md must contain test/helpers/readme-example.ts verbatim');

  useTestCache();
  const { main } = await import('../helpers/readme-example.js');
  const cells = await main();
  assert.equal(cells.length, 4);
  for (const c of cells) assert.equal(c.state, 'completed', `${c.engine}/${c.batchSize}: ${JSON.stringify(c)}`);
});
