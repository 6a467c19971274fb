import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/**
 * Root folder of the inferbench package. Compiled code runs from `dist/…`
 * while data files (embedded dataset) stay in the source tree, so paths are
 * resolved from the root rather than from the module's own folder.
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (pkg.name === 'inferbench') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the inferbench package root');
    dir = parent;
  }
}

/** Version of inferbench itself, for result rows and `--version`. */
export function inferbenchVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}

/**
 * Installed version of a dependency, read from its package.json, or null
 * when it is not installed. Result rows record these instead of the ranges
 * in our manifest, because the installed build is what was measured.
 */
export function installedVersion(pkgName: string): string | null {
  try {
    const path = require.resolve(`${pkgName}/package.json`);
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
  } catch {
    // Packages whose "exports" hide package.json: walk up from the entry point.
    try {
      let dir = dirname(require.resolve(pkgName));
      for (;;) {
        const manifest = join(dir, 'package.json');
        if (existsSync(manifest)) {
          const pkg = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
          if (pkg.name === pkgName && pkg.version) return pkg.version;
        }
        const parent = dirname(dir);
        if (parent === dir) return null;
        dir = parent;
      }
    } catch {
      return null;
    }
  }
}

/** Folder of an installed package, for locating bundled binaries (wasm, provider libraries). */
export function packageDir(pkgName: string): string | null {
  const version = installedVersion(pkgName);
  if (version === null) return null;
  try {
    return dirname(require.resolve(`${pkgName}/package.json`));
  } catch {
    return null;
  }
}
