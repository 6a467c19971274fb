import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
 * The package.json of an installed dependency, or null. Found by folder
 * (`<each node_modules Node would search>/<name>/package.json`), not through
 * `require.resolve`: a package whose "exports" hide package.json, or whose
 * CommonJS entry is absent (the offline pack keeps only transformers.js's ESM
 * build), is still installed.
 */
function manifestPath(pkgName: string): string | null {
  for (const dir of require.resolve.paths(pkgName) ?? []) {
    const manifest = join(dir, pkgName, 'package.json');
    if (existsSync(manifest)) return manifest;
  }
  return null;
}

/**
 * Installed version of a dependency, read from its package.json, or null
 * when it is not installed. Result rows record these instead of the ranges
 * in our manifest, because the installed build is what was measured.
 */
export function installedVersion(pkgName: string): string | null {
  const manifest = manifestPath(pkgName);
  if (manifest === null) return null;
  try {
    return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

/** Folder of an installed package, for locating bundled binaries (wasm, provider libraries). */
export function packageDir(pkgName: string): string | null {
  const manifest = manifestPath(pkgName);
  return manifest === null ? null : dirname(manifest);
}

/**
 * A one-file bundle `npm run build` made of a dependency (tools/build.mjs
 * VENDOR_BUNDLES: @duckdb/node-api, vega with vega-lite, hyparquet-writer),
 * or null where there is none: a bare tsc build, an npm tarball, an offline
 * pack (no dist/ in it). Also null when a package it bundles is no longer the
 * version it was built from (its `<file>.json` says which: node_modules
 * updated without `npm run build`), so old code never meets a new native
 * binding. The caller then loads the package itself, file by file.
 */
export function vendorBundle(file: string): string | null {
  let found = vendorBundles.get(file);
  if (found === undefined) {
    found = findVendorBundle(file);
    vendorBundles.set(file, found);
  }
  return found;
}

/** Each bundle's answer, once per process: it is asked at every chart and Parquet file a run writes. */
const vendorBundles = new Map<string, string | null>();

function findVendorBundle(file: string): string | null {
  let path: string;
  try {
    path = join(packageRoot(), 'dist', 'vendor', file);
  } catch {
    return null;
  }
  if (!existsSync(path)) return null;
  try {
    const built = JSON.parse(readFileSync(`${path}.json`, 'utf8')) as { readonly versions?: Readonly<Record<string, string>> };
    if (built.versions === undefined || Object.entries(built.versions).some(([name, version]) => installedVersion(name) !== version)) return null;
  } catch {
    return null;
  }
  return path;
}

/**
 * An ES module dependency from its build bundle `file` (which exports what
 * `load` gives) where there is one, else through `load` (`() =>
 * import('the-package')`), which also types the answer.
 */
export async function importVendored<T>(file: string, load: () => Promise<T>): Promise<T> {
  const bundle = vendorBundle(file);
  return bundle === null ? load() : ((await import(pathToFileURL(bundle).href)) as T);
}
