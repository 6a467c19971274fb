#!/usr/bin/env node
/**
 * `npm run build`: a clean `tsc` build of dist/, skipped when dist/ was
 * built from exactly the inputs here now.
 *
 * Why: a fresh clone builds in `npm install` (prepare), then again in
 * `npm run setup:tfjs-node` and in `npm test`: about 17 s of tsc each on the
 * 2-core machine, for the same output. The key is a SHA-256 over every input
 * tsc reads from the project: each .ts/.mts/.cts/.tsx and .json file under
 * tsconfig's `include` folders (path and bytes), tsconfig.json,
 * package.json, the installed tree's node_modules/.package-lock.json (the
 * types it checks against) and TypeScript's version. It is written to
 * dist/.build-key only after tsc succeeds, so a failed or interrupted build
 * is built again; a build removes dist/ first, so a deleted source leaves no
 * stale output. `--force` builds regardless; `--print-key` prints the key
 * and builds nothing; `--root DIR` builds the project in DIR (the tests).
 * This script's own text is in the key too: a change to how it builds is a
 * new build.
 *
 * After tsc, each package in VENDOR_BUNDLES is bundled by esbuild into one
 * file under dist/vendor/, with the versions it bundled beside it
 * (`<file>.json`), for the code that loads it (its `loads` entry), which
 * takes the package itself where there is no bundle (npm pack leaves
 * dist/vendor/ out) or the installed version is another.
 *
 * Plain JavaScript, not TypeScript: it runs before dist/ exists.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = /\.(ts|mts|cts|tsx|json)$/;
/** This checkout's root: the default project, and where TypeScript is installed. */
const HERE = join(dirname(fileURLToPath(import.meta.url)), '..');
const KEY_FILE = '.build-key';

/**
 * Packages on the path of common commands whose many files cost more to
 * load one by one than their code does, each bundled into one file.
 * - @duckdb/node-api is 181 CommonJS files: 0.25 CPU-s to require against
 *   0.19 as one file, at every command that opens the history (run, list,
 *   show, compare, the dashboard). Its native binding stays external.
 * - vega and vega-lite (ES modules, about 400 files with d3's) drew every
 *   PNG: 0.60 CPU-s to import against 0.33 as one module.
 * - hyparquet-writer (24 ES module files) wrote every run's Parquet files:
 *   0.20 CPU-s against 0.13 (Node's own start is about 0.1).
 * Engines are never here: their imports are part of the load a row measures.
 * `deps` must all be dependencies of the project; `source` is the bundle's
 * entry module, `loads` the code that takes it (src/core/package-info.ts
 * `vendorBundle`).
 */
export const VENDOR_BUNDLES = [
  { file: 'duckdb-node-api.cjs', format: 'cjs', deps: ['@duckdb/node-api'], source: "module.exports = require('@duckdb/node-api');", external: ['@duckdb/node-bindings'], loads: 'src/runs/history/store-access.ts' },
  { file: 'vega.mjs', format: 'esm', deps: ['vega', 'vega-lite'], source: "export * as vega from 'vega';\nexport { compile } from 'vega-lite';", external: [], loads: 'reports/png-chart.ts' },
  { file: 'hyparquet-writer.mjs', format: 'esm', deps: ['hyparquet-writer'], source: "export * from 'hyparquet-writer';", external: [], loads: 'reports/parquet-report.ts' },
];

/** Files under `dir` whose names match SOURCE, depth first in name order. */
function sources(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sources(path));
    else if (entry.isFile() && SOURCE.test(entry.name)) out.push(path);
  }
  return out;
}

/** The key of the project at `root`, built by TypeScript `typescriptVersion`. */
function buildKey(root, typescriptVersion) {
  const config = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
  const include = Array.isArray(config.include) ? config.include : ['.'];
  const hash = createHash('sha256').update(`typescript ${typescriptVersion}\n`).update(readFileSync(fileURLToPath(import.meta.url)));
  const files = ['tsconfig.json', 'package.json', join('node_modules', '.package-lock.json')]
    .map((f) => join(root, f))
    .filter((f) => existsSync(f))
    .concat(include.flatMap((d) => sources(join(root, d))));
  for (const file of files) hash.update(`${relative(root, file)}\n`).update(readFileSync(file)).update('\n');
  return hash.digest('hex');
}

function main() {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = rootAt >= 0 ? args[rootAt + 1] : HERE;
  if (root === undefined) {
    console.error('error: --root needs a folder\nfix: npm run build -- --root DIR');
    process.exit(2);
  }
  const tscPackage = createRequire(join(HERE, 'package.json')).resolve('typescript/package.json');
  const version = JSON.parse(readFileSync(tscPackage, 'utf8')).version;
  const key = buildKey(root, version);
  if (args.includes('--print-key')) {
    console.log(key);
    return;
  }
  const out = join(root, 'dist');
  const keyFile = join(out, KEY_FILE);
  if (!args.includes('--force') && existsSync(keyFile) && readFileSync(keyFile, 'utf8').trim() === key) {
    console.log(`dist/ is up to date (built from these sources, ${KEY_FILE} ${key.slice(0, 12)}); npm run build -- --force rebuilds it`);
    return;
  }
  rmSync(out, { recursive: true, force: true });
  const tsc = spawnSync(process.execPath, [join(dirname(tscPackage), 'bin', 'tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  bundleVendors(root, out);
  const cli = join(out, 'src', 'cli', 'main.js');
  if (existsSync(cli)) chmodSync(cli, 0o755);
  writeFileSync(keyFile, `${key}\n`);
}

/** Each VENDOR_BUNDLES entry whose packages are all among `root`'s dependencies, bundled into dist/vendor/ (a project without them, such as a test's, gets none). */
function bundleVendors(root, out) {
  const manifest = join(root, 'package.json');
  const dependencies = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')).dependencies ?? {}) : {};
  for (const { file, format, deps, source, external } of VENDOR_BUNDLES) {
    if (!deps.every((d) => Object.hasOwn(dependencies, d))) continue;
    const esbuild = createRequire(join(HERE, 'package.json'))('esbuild');
    const stdin = { contents: source, resolveDir: root, sourcefile: `vendor-${file}`, loader: 'js' };
    const outfile = join(out, 'vendor', file);
    esbuild.buildSync({ stdin, bundle: true, platform: 'node', format, external, outfile, logLevel: 'warning', legalComments: 'inline' });
    // The versions bundled: the loader takes the bundle only while these are still the installed ones.
    const versions = Object.fromEntries(deps.map((d) => [d, installedVersion(manifest, d)]));
    writeFileSync(`${outfile}.json`, `${JSON.stringify({ versions })}\n`);
  }
}

/** The version of `name` as Node would find it from the project (its package.json by folder, as src/core/package-info.ts reads it). */
function installedVersion(manifest, name) {
  for (const dir of createRequire(manifest).resolve.paths(name) ?? []) {
    const found = join(dir, name, 'package.json');
    if (existsSync(found)) return JSON.parse(readFileSync(found, 'utf8')).version;
  }
  throw new Error(`${name} is a dependency but is not installed: npm install`);
}

// Run as a script (`npm run build`); imported, it only lends VENDOR_BUNDLES (tools/bench-vendor-bundles.ts).
if (process.argv[1] !== undefined && realpathSync(fileURLToPath(import.meta.url)) === realpathSync(process.argv[1])) main();
