/**
 * The docs cite only files that exist: measurement.md cited a
 * `reports/views.ts` long after it had been split and renamed (issue 47).
 * Every source path a doc names in code (`src/…`, `reports/…`, `engines/…`,
 * `datasets/…`, `tools/…`, `test/…` with a file extension) is a file of the
 * repository; a pattern (`test/tfjs-node-*.test.ts`) or a placeholder
 * (`<name>`) is no path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const ROOT = new URL('../../../', import.meta.url);
const FILES = ['README.md', ...readdirSync(new URL('docs/', ROOT)).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const CITED = /`((?:src|reports|engines|datasets|tools|test)\/[\w./-]+\.(?:ts|js|mjs|py|sh|json))[`: ]/g;

test('every source file the docs cite exists', () => {
  const missing: string[] = [];
  for (const file of FILES) {
    for (const m of readFileSync(new URL(file, ROOT), 'utf8').matchAll(CITED)) {
      const path = m[1] ?? '';
      if (!existsSync(new URL(path, ROOT))) missing.push(`${file}: ${path}`);
    }
  }
  assert.deepEqual(missing, []);
});
