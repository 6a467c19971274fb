import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../src/core/package-info.js';
import { testOutputDir } from '../../helpers/test-cache.js';

const BUILD = join(packageRoot(), 'tools', 'build.mjs');

/** `npm run build` (tools/build.mjs) on the project at `root`. */
function build(root: string, ...args: string[]): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [BUILD, '--root', root, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

test('npm run build skips tsc when dist/ was built from the same sources, and builds clean when one changed, was removed or failed to compile', () => {
  const root = testOutputDir('build-skip');
  mkdirSync(join(root, 'src'));
  // ES5's lib, unchecked: tsc reads a tenth of what ES2022's costs it (0.6 CPU-s a build instead of 3), and these sources need no more.
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [], lib: ['ES5'], skipLibCheck: true, outDir: 'dist', rootDir: '.' }, include: ['src'] }));
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a: number = 1;\n');
  writeFileSync(join(root, 'src', 'b.ts'), 'export const b: string = "b";\n');
  writeFileSync(join(root, 'README.md'), 'not an input\n');

  const first = build(root);
  assert.equal(first.code, 0, first.out);
  assert.ok(existsSync(join(root, 'dist', 'src', 'b.js')));
  const key = readFileSync(join(root, 'dist', '.build-key'), 'utf8').trim();
  assert.equal(build(root, '--print-key').out.trim(), key, 'the key written is the key of these sources');

  // Unchanged inputs (a file outside them changed): nothing is rebuilt, so a file put in dist/ stays.
  writeFileSync(join(root, 'dist', 'marker'), '');
  writeFileSync(join(root, 'README.md'), 'still not an input\n');
  const same = build(root);
  assert.equal(same.code, 0, same.out);
  assert.match(same.out, /dist\/ is up to date/);
  assert.ok(existsSync(join(root, 'dist', 'marker')));

  // A source changed and another removed: a clean build, with no output left from the removed one.
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a: number = 2;\n');
  rmSync(join(root, 'src', 'b.ts'));
  const changed = build(root);
  assert.equal(changed.code, 0, changed.out);
  assert.doesNotMatch(changed.out, /up to date/);
  assert.ok(!existsSync(join(root, 'dist', 'marker')));
  assert.ok(!existsSync(join(root, 'dist', 'src', 'b.js')), 'the removed source left no output');
  assert.match(readFileSync(join(root, 'dist', 'src', 'a.js'), 'utf8'), /a = 2/);

  // A type error fails the build and writes no key, so the next build compiles again (and fails again) rather than skipping.
  writeFileSync(join(root, 'src', 'a.ts'), 'export const a: number = "two";\n');
  const broken = build(root);
  assert.notEqual(broken.code, 0);
  assert.match(broken.out, /TS2322/);
  assert.ok(!existsSync(join(root, 'dist', '.build-key')));
  assert.notEqual(build(root).code, 0, 'a failed build is never skipped');
});
