/**
 * An on-disk memo of a successful tfjs-node probe, so that a later process
 * skips the probe child (native-library.ts: about 1.6 CPU-s, libtensorflow
 * loaded in a child Node) when nothing that decides the answer changed.
 * Every `inferbench run`, `engines`, `train` and `inspect` that lists the
 * tfjs-node engines paid that child, as did every test process asking
 * whether tfjs-node is built.
 *
 * The answer depends on the files the import loads and on what decides how
 * they load, so the key holds: the package; the resolved path, device,
 * inode, size and mtime (ns) of its package.json, of every file under
 * lib/napi-v* (tfjs_binding.node) and deps/lib (libtensorflow*, which the
 * binding's RUNPATH finds there), and of the tfjs-core it registers with;
 * Node's version and module ABI; platform and arch; and the variables that
 * change what the loader picks (LD_LIBRARY_PATH, LD_PRELOAD, NODE_OPTIONS,
 * CUDA_VISIBLE_DEVICES for -gpu). A reinstall gives new inodes, so even
 * npm's fixed tarball mtimes cannot hide it.
 *
 * Only `ok: true` is stored: a failed probe is never remembered, so a user
 * who fixes an install is not shown the old error. The memo is an
 * availability answer only: `open()` still imports the package in its own
 * process and every row reads TF_Version and the threads back from the
 * library it loaded (tfjs-backend.ts), so a remembered-ok library that no
 * longer loads fails that cell with the import's error, as before.
 *
 * The file handling is core/probe-memo.ts's, shared with the browser GPU
 * engines' Chromium probe.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { debuglog } from 'node:util';
import { defaultCacheRoot } from '../../src/core/cache-root.js';
import { fileStamp, folderNames, rememberedAnswer, type ProbeMemo } from '../../src/core/probe-memo.js';

/** What the probe child reports: the backend registered and the C library version, or the load error. */
export type ChildProbe = { readonly ok: true; readonly tensorflow: string | null } | { readonly ok: false; readonly error: string };

/** Folder of the cache that holds the memo files, one per key. */
export const PROBE_MEMO_FOLDER = 'tfjs-node-probe';
/** Bumped when the key or the file changes meaning, so older memos are not read. */
const FORMAT = 2;
/** Variables that change which libraries the import loads or how (the rest, such as TF_CPP_MIN_LOG_LEVEL, do not). */
const LOADER_ENV = ['LD_LIBRARY_PATH', 'LD_PRELOAD', 'DYLD_LIBRARY_PATH', 'DYLD_INSERT_LIBRARIES', 'NODE_OPTIONS', 'CUDA_VISIBLE_DEVICES'] as const;

const debug = debuglog('inferbench');

export interface ProbeMemoOptions {
  /** The inferbench cache; `defaultCacheRoot()` (INFERBENCH_CACHE…) read at the call. */
  readonly cacheRoot?: string;
  /** The environment the probe child gets; process.env. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * The probe's answer for `pkg` installed at `packageDir`: the memo's when
 * its key matches, else `probe()`'s, stored when it is ok. Never throws for
 * the memo's sake.
 */
export async function rememberedProbe(pkg: string, packageDir: string, probe: () => Promise<ChildProbe>, options: ProbeMemoOptions = {}): Promise<ChildProbe> {
  const key = await probeKey(pkg, packageDir, options.env ?? process.env);
  return rememberedAnswer(MEMO, key, probe, options.cacheRoot ?? defaultCacheRoot());
}

/** An ok answer only, read back as the probe child gives it. */
const MEMO: ProbeMemo<ChildProbe> = {
  folder: PROBE_MEMO_FOLDER,
  label: 'tfjs-node probe',
  keep: (answer) => answer.ok,
  parse: (value) => {
    const v = value as { ok?: unknown; tensorflow?: unknown } | null;
    return v !== null && typeof v === 'object' && v.ok === true && (v.tensorflow === null || typeof v.tensorflow === 'string') ? { ok: true, tensorflow: v.tensorflow } : null;
  },
};

/** The files of the package that the binding's load reads: lib/napi-v*\/* and deps/lib/*. */
async function nativeFiles(packageDir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await folderNames(join(packageDir, 'lib'))) {
    if (!entry.startsWith('napi-v')) continue;
    for (const inner of await folderNames(join(packageDir, 'lib', entry))) files.push(join(packageDir, 'lib', entry, inner));
  }
  for (const entry of await folderNames(join(packageDir, 'deps', 'lib'))) files.push(join(packageDir, 'deps', 'lib', entry));
  return files.sort();
}

/** Where `@tensorflow/tfjs-core` resolves from the package, or null where it does not. */
function coreManifest(manifest: string): string | null {
  try {
    return createRequire(manifest).resolve('@tensorflow/tfjs-core/package.json');
  } catch {
    return null;
  }
}

/**
 * The key text, or null where it cannot be made (no tfjs_binding.node
 * found, a file that cannot be read): then nothing is remembered.
 */
async function probeKey(pkg: string, packageDir: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  try {
    const native = await nativeFiles(packageDir);
    if (!native.some((f) => f.endsWith('tfjs_binding.node'))) return null;
    const manifest = join(packageDir, 'package.json');
    // The tfjs-core the package registers its backend with: another copy is the probe's "two tfjs-core copies" failure.
    const core = coreManifest(manifest);
    const stamps: string[] = core === null ? ['no @tensorflow/tfjs-core'] : [];
    for (const f of [manifest, ...(core === null ? [] : [core]), ...native]) {
      const stamp = await fileStamp(f);
      if (stamp !== null) stamps.push(stamp);
    }
    const loader = Object.fromEntries(LOADER_ENV.map((name) => [name, env[name] ?? null]));
    if (process.platform === 'win32') loader['PATH'] = env['PATH'] ?? null;
    const { node, modules, napi } = process.versions;
    return JSON.stringify({ format: FORMAT, pkg, node, modules, napi, platform: process.platform, arch: process.arch, env: loader, files: stamps });
  } catch (err) {
    debug(`tfjs-node probe memo: no key for ${pkg} (${String(err)})`);
    return null;
  }
}
