import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * CI installs with `npm ci`, which refuses a lock file that names a dependency
 * it holds no entry for ("Missing: … from lock file"), even an optional one for
 * another platform. `npm install` tolerates the gap, so a lock written against
 * a registry mirror that lacks some platform builds passes every local check
 * and fails CI in two seconds (it did: msgpackr-extract 3.0.7's darwin and
 * win32 builds). This walks the lock the way Node resolves packages, from the
 * nested `node_modules` up to the root, and names every unresolved edge.
 */
interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  link?: boolean;
}

test('every dependency any package in package-lock.json declares has a lock entry', () => {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    lockfileVersion: number;
    packages: Record<string, LockEntry>;
  };
  assert.ok(lock.lockfileVersion >= 2, 'package-lock.json must carry the "packages" map (lockfileVersion 2 or 3)');
  const missing: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (entry.link === true) continue;
    // Only the root's dev dependencies are installed; required peers are installed too (npm 7+).
    const peers = Object.keys(entry.peerDependencies ?? {}).filter((n) => entry.peerDependenciesMeta?.[n]?.optional !== true);
    const wanted = [
      ...Object.keys({ ...entry.dependencies, ...entry.optionalDependencies }),
      ...(path === '' ? Object.keys(entry.devDependencies ?? {}) : []),
      ...peers,
    ];
    for (const name of wanted) {
      if (!resolves(lock.packages, path, name)) missing.push(`${path === '' ? '(root)' : path} → ${name}`);
    }
  }
  assert.deepEqual(missing, [], 'lock entries missing; re-run `npm install` against a registry that has them, or pin an override');
});

/** Node's lookup: `<dir>/node_modules/<name>` for the package's own folder and each ancestor folder. */
function resolves(packages: Record<string, LockEntry>, from: string, name: string): boolean {
  let dir = from;
  for (;;) {
    const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (Object.hasOwn(packages, candidate)) return true;
    if (dir === '') return false;
    const cut = dir.lastIndexOf('/node_modules/');
    dir = cut < 0 ? '' : dir.slice(0, cut);
  }
}
