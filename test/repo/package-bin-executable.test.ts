import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npx inferbench` in a fresh clone runs package.json's `bin` file directly,
 * so the compiled CLI must be executable and start with a shebang: tsc writes
 * files 0644, and the build script sets the bit (a fresh clone's `npx
 * inferbench run` failed with "Permission denied" without it).
 */
test('the compiled CLI the bin field names is executable and has a node shebang', () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
  const bin = pkg.bin['inferbench'];
  assert.equal(bin, 'dist/src/cli/main.js');
  const path = join(root, bin);
  assert.notEqual(statSync(path).mode & 0o111, 0, `${bin} is not executable`);
  assert.match(readFileSync(path, 'utf8').split('\n')[0] ?? '', /^#!\/usr\/bin\/env node$/);
});
