import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Issue 49's measure of the engine-family example (docs/development.md,
 * "Adding an engine family"): the toy family touches only its own folder
 * and the one line that names its module. No source names it or its
 * format, so nothing had to change for it; and its folder imports only
 * src/core/, as an engine family under engines/ may.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const FAMILY = join(ROOT, 'test', 'helpers', 'toy-family');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

test('no source outside the toy family names it or its format', () => {
  const naming = ['src', 'engines', 'reports', 'datasets', 'tools']
    .flatMap((dir) => sourceFiles(join(ROOT, dir)))
    .filter((file) => /\btoy\b|toy-json/.test(readFileSync(file, 'utf8')))
    .map((file) => relative(ROOT, file).split(sep).join('/'));
  assert.deepEqual(naming, []);
});

test("the toy family's folder imports nothing but itself and src/core/, as an engine family may", () => {
  const outside: string[] = [];
  for (const file of sourceFiles(FAMILY)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^import [^'"]*['"]([^'"]+)['"]/gm)) {
      const spec = m[1] ?? '';
      if (spec.startsWith('node:')) continue;
      const target = relative(ROOT, join(dirname(file), spec)).split(sep).join('/');
      if (!target.startsWith('src/core/') && !target.startsWith('test/helpers/toy-family/')) outside.push(`${relative(ROOT, file)} imports ${spec}`);
    }
  }
  assert.deepEqual(outside, []);
});
