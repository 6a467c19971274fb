/**
 * Assembles the offline pack's folder: the Node binary running this tool,
 * the CLI and its child-process entries bundled by esbuild into one `app/`
 * folder (the launchers find their children beside themselves with
 * `new URL('./scenario-child.js', import.meta.url)`, so one folder keeps those
 * paths true), the data files the CLI reads at run time, and `node_modules`
 * copies of the packages `pack-table.ts` lists for the chosen engines.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { ALWAYS, EXTERNAL, HISTORY, NEVER, PACK_ENGINES, unpackableReason, type PackPackage } from './pack-table.js';
import { ENGINE_IDS } from '../engines/registry.js';
import type { PackManifest, PackOmission } from '../src/core/offline-pack.js';

/** The bundle's entries, named as the files the launchers look for beside themselves. */
export const ENTRIES: Readonly<Record<string, string>> = {
  main: 'dist/src/cli/main.js',
  'scenario-child': 'dist/src/launchers/scenario-child.js',
  'native-probe-child': 'dist/engines/tfjs/native-probe-child.js',
  'dawn-probe-child': 'dist/engines/webgpu/dawn-probe-child.js',
};

/** Files the CLI reads at run time by path from the package root (datasets/open-dataset.ts, src/dashboard/static-files.ts). */
const DATA_FILES: readonly string[] = ['datasets/default/sentiment.jsonl', 'datasets/README.md', 'src/dashboard/web'];

/** Never in a pack: source maps, type declarations and sources, docs, tests. */
const DROP = /(\.map|\.d\.[cm]?ts|\.[cm]?ts|\.tsbuildinfo|\.md|\.markdown)$|(^|\/)(docs?|tests?|__tests__|examples?|\.github)\//i;

export interface PackOptions {
  readonly engines: readonly string[];
  readonly withHistory: boolean;
  /** The repository root (holds dist/, node_modules/, datasets/). */
  readonly root: string;
  /** Empty folder to assemble the pack's folder in. */
  readonly stage: string;
  /** Name of the pack's top folder. */
  readonly folder: string;
  /** How the folder will be compressed (`xz -9`), recorded in pack.json so a pack says how it was built. */
  readonly compression: string;
}

export interface PackContents {
  readonly dir: string;
  readonly manifest: PackManifest;
  /** node_modules paths copied, in order. */
  readonly packages: readonly string[];
}

/** The packages the chosen engines (plus the parts every pack has) need, each once. */
export function packagesFor(engines: readonly string[], withHistory: boolean): PackPackage[] {
  const byPath = new Map<string, PackPackage>();
  const parts = [ALWAYS, ...engines.map((e) => PACK_ENGINES[e]).filter((p) => p !== undefined), ...(withHistory ? [HISTORY] : [])];
  for (const part of parts) for (const p of part.packages) if (!byPath.has(p.path)) byPath.set(p.path, p);
  return [...byPath.values()];
}

/** What the pack leaves out, for its manifest and the build's printout. */
export function omissions(engines: readonly string[], withHistory: boolean): PackOmission[] {
  const shipped = new Set(packagesFor(engines, withHistory).map((p) => p.path));
  const out: PackOmission[] = withHistory ? [] : [{ part: HISTORY.part, packages: ['@duckdb/node-api'], effect: HISTORY.effect }];
  for (const n of NEVER) out.push(n);
  const heavy = ['onnxruntime-web', '@huggingface/transformers', '@tensorflow/tfjs-backend-wasm', '@tensorflow/tfjs-backend-webgpu', 'webgpu'];
  const missing = heavy.filter((p) => !shipped.has(p));
  if (missing.length > 0) out.push({ part: 'engines not chosen', packages: missing, effect: `only ${engines.join(', ')} run from this pack` });
  return out;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : filesUnder(path);
    return e.isFile() ? [path] : [];
  });
}

function copyInto(from: string, to: string): void {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  chmodSync(to, statSync(from).mode & 0o777);
}

/** Copies one package's kept files (nested node_modules are packages of their own in the table). */
function copyPackage(root: string, nodeModules: string, pkg: PackPackage): void {
  const src = join(root, 'node_modules', pkg.path);
  const dest = join(nodeModules, pkg.path);
  if (pkg.stub !== undefined) {
    mkdirSync(dest, { recursive: true });
    writeFileSync(join(dest, 'package.json'), JSON.stringify({ name: pkg.path.split('/node_modules/').pop(), version: '0.0.0-inferbench-pack-stub', main: 'index.js' }) + '\n');
    writeFileSync(join(dest, 'index.js'), pkg.stub);
    return;
  }
  if (!existsSync(join(src, 'package.json'))) {
    throw new Error(`node_modules/${pkg.path} is not installed here; run npm ci before building the pack`);
  }
  copyInto(join(src, 'package.json'), join(dest, 'package.json'));
  const keep = pkg.keep;
  for (const file of filesUnder(src)) {
    const rel = relative(src, file).split(sep).join('/');
    if (rel === 'package.json') continue;
    if (keep ? !keep.some((k) => rel === k || (k.endsWith('/') && rel.startsWith(k))) || /\.(map|d\.[cm]?ts)$/.test(rel) : DROP.test(rel)) continue;
    copyInto(file, join(dest, rel));
  }
  for (const k of keep ?? []) {
    if (!existsSync(join(src, k))) throw new Error(`node_modules/${pkg.path}/${k} is missing: the pack table (tools/pack-table.ts) no longer matches the installed package`);
  }
}

/** The CLI and its child entries as bundles in `app/`, every package the table names left external. */
async function bundle(root: string, app: string): Promise<string[]> {
  const esbuild = await import('esbuild');
  const entryPoints = Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(root, file)]));
  for (const file of Object.values(entryPoints)) if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  const result = await esbuild.build({
    entryPoints,
    metafile: true,
    outdir: app,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...EXTERNAL],
    minify: true,
    // Error messages and tables use class and function names (err.name); keep them.
    keepNames: true,
    legalComments: 'none',
    logLevel: 'error',
    // Bundled CommonJS packages call require() and read __dirname; an ES module has neither.
    banner: {
      js: [
        "import { createRequire as __pkRequire } from 'node:module';",
        "import { fileURLToPath as __pkPath } from 'node:url';",
        "import { dirname as __pkDir } from 'node:path';",
        'const require = __pkRequire(import.meta.url);',
        'const __filename = __pkPath(import.meta.url);',
        'const __dirname = __pkDir(__filename);',
      ].join(' '),
    },
  });
  // Packages imported at load time (static imports): the pack must ship every one, or nothing starts.
  const loadTime = new Set<string>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const i of output.imports) if (i.external && i.kind === 'import-statement' && !isBuiltin(i.path)) loadTime.add(i.path.startsWith('@') ? i.path.split('/').slice(0, 2).join('/') : (i.path.split('/')[0] as string));
  }
  return [...loadTime];
}

/** The pack's `inferbench` launcher: the bundled Node on the bundled CLI, with pack.json named for it. */
export const LAUNCHER = `#!/bin/sh
# inferbench offline pack: the bundled Node runs the bundled CLI; pack.json says what the pack holds.
# A symbolic link to this launcher (in ~/bin, /usr/local/bin) is followed to the pack's own folder.
self=$0
while [ -h "$self" ]; do
  link=$(readlink -- "$self")
  case $link in /*) self=$link ;; *) self=$(dirname -- "$self")/$link ;; esac
done
here=$(CDPATH= cd -- "$(dirname -- "$self")" && pwd -P)
INFERBENCH_PACK="$here/pack.json"
export INFERBENCH_PACK
exec "$here/bin/node" "$here/app/main.js" "$@"
`;

/** Builds the pack's folder under `opts.stage` and returns what went in. */
export async function assemblePack(opts: PackOptions): Promise<PackContents> {
  const dir = join(opts.stage, opts.folder);
  mkdirSync(dir, { recursive: true });
  const own = JSON.parse(readFileSync(join(opts.root, 'package.json'), 'utf8')) as { version: string };
  const loadTime = await bundle(opts.root, join(dir, 'app'));
  // packageRoot() walks up from app/ to the first package.json named inferbench.
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'inferbench', version: own.version, private: true, type: 'module' }, null, 2) + '\n');
  copyInto(process.execPath, join(dir, 'bin', 'node'));
  chmodSync(join(dir, 'bin', 'node'), 0o755);
  for (const rel of DATA_FILES) {
    const src = join(opts.root, rel);
    const files = statSync(src).isDirectory() ? filesUnder(src) : [src];
    for (const f of files) copyInto(f, join(dir, relative(opts.root, f)));
  }
  const packages = packagesFor(opts.engines, opts.withHistory);
  const unshipped = loadTime.filter((name) => !packages.some((p) => p.path === name));
  if (unshipped.length > 0) throw new Error(`the bundled CLI imports ${unshipped.join(', ')} when it starts, but tools/pack-table.ts does not ship it in every pack (add it to ALWAYS)`);
  for (const p of packages) copyPackage(opts.root, join(dir, 'node_modules'), p);
  const unpackable = Object.fromEntries(ENGINE_IDS.flatMap((id) => {
    const why = unpackableReason(id);
    return why ? [[id, why]] : [];
  }));
  const manifest: PackManifest = { engines: [...opts.engines], leftOut: omissions(opts.engines, opts.withHistory), unpackable };
  writeFileSync(join(dir, 'pack.json'), JSON.stringify({ ...manifest, inferbench: own.version, node: process.version, platform: 'linux-x64', compression: opts.compression }, null, 2) + '\n');
  writeFileSync(join(dir, 'inferbench'), LAUNCHER);
  chmodSync(join(dir, 'inferbench'), 0o755);
  return { dir, manifest, packages: packages.map((p) => p.path) };
}
