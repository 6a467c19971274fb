import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/core/package-info.js';
import { ENTRIES } from '../../tools/pack-build.js';

/** Every .ts file under a source folder, recursively. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

// A child script the product locates beside itself (`new URL('./x.js', import.meta.url)`) is a file of app/ in the
// offline pack only when the bundle has an entry of that name; without one the pack's child dies at start
// (the Dawn probe did: every WebGPU engine read "the WebGPU probe process died").
test('the offline pack bundles every child script the product starts by its own path', () => {
  const root = packageRoot();
  const wanted = new Set<string>();
  for (const folder of ['src', 'engines', 'datasets', 'reports']) {
    for (const file of sources(join(root, folder))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/new URL\('\.\/([\w-]+)\.js', import\.meta\.url\)/g)) wanted.add(m[1] as string);
    }
  }
  assert.ok(wanted.has('scenario-child') && wanted.has('dawn-probe-child'), `found: ${[...wanted].join(', ')}`);
  for (const name of wanted) assert.ok(name in ENTRIES, `${name}.js is started by path but is not a bundle entry of tools/pack-build.ts`);
});
