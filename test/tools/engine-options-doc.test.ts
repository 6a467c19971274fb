import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DOC_PATH, withTables } from '../../tools/engine-options-doc.js';

test('docs/engine-options.md holds the option tables the engines register (regenerate: node dist/tools/engine-options-doc.js)', () => {
  const page = readFileSync(DOC_PATH, 'utf8');
  assert.equal(page, withTables(page));
  assert.match(page, /`graphOptimizationLevel` \| disabled\\\|basic/);
});
