/**
 * Loading libtensorflow (tfjs-node, tfjs-node-gpu) with a thread count.
 *
 * libtensorflow sizes its thread pools once per process, when the binding
 * creates its eager context on import, from TF_NUM_INTRAOP_THREADS and
 * TF_NUM_INTEROP_THREADS (tfjs-node passes no session config). So the
 * variables are set just before the first import, a later session asking
 * for another count is refused (it needs its own process: isolated cells
 * are), and probing happens in a child process so that `probe()` in a
 * parent or a cell child never fixes the pools before `open()` chose them.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { libraryLogsWanted } from '../../src/core/library-logs.js';
import { rememberedProbe, type ChildProbe } from './native-probe-memo.js';

type Tf = typeof import('@tensorflow/tfjs-core');

const require = createRequire(import.meta.url);

/** How the loaded libtensorflow sized its pools. */
export interface NativeThreads {
  /** Intra-op pool size: what `describe().threads` reports. */
  readonly intraOp: number;
  readonly interOp: number;
  /** 'requested': inferbench set the variables; 'environment': the user had; 'default': neither (TF uses every schedulable core). */
  readonly source: 'requested' | 'environment' | 'default';
}

/** Set once libtensorflow is in this process; undefined until then. */
let loaded: NativeThreads | undefined;

/** What the library was loaded with in this process, if it was. */
export function nativeThreads(): NativeThreads | undefined {
  return loaded;
}

function envCount(name: string): number | null {
  const n = Number(process.env[name]);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** The pools TF will make given the environment now (its default is the count of schedulable cores, as availableParallelism). */
function threadsFromEnvironment(): NativeThreads {
  const intra = envCount('TF_NUM_INTRAOP_THREADS');
  const inter = envCount('TF_NUM_INTEROP_THREADS');
  return {
    intraOp: intra ?? availableParallelism(),
    interOp: inter ?? availableParallelism(),
    source: intra !== null || inter !== null ? 'environment' : 'default',
  };
}

/**
 * Imports `pkg` (which loads libtensorflow) with `threads` intra- and
 * inter-op threads, or with the environment's/TF's defaults for null. The
 * variables are read by libtensorflow at that import only, hence the
 * refusal message the caller builds when `nativeThreads()` already differs.
 * If another module imported the package first, the pools were sized from
 * the environment as it was then; the current environment is the best
 * guess left.
 */
export async function importNative(tf: Tf, pkg: string, threads: number | null): Promise<NativeThreads> {
  if (loaded) return loaded;
  if (tf.findBackendFactory('tensorflow') != null) {
    loaded = threadsFromEnvironment();
    return loaded;
  }
  // TF's C++ logging would land in every report; errors still show, and --verbose shows everything (see core/library-logs.ts).
  if (!libraryLogsWanted()) process.env['TF_CPP_MIN_LOG_LEVEL'] ??= '2';
  if (threads !== null) {
    process.env['TF_NUM_INTRAOP_THREADS'] = String(threads);
    process.env['TF_NUM_INTEROP_THREADS'] = String(threads);
  }
  const planned: NativeThreads = threads !== null ? { intraOp: threads, interOp: threads, source: 'requested' } : threadsFromEnvironment();
  await import(pkg);
  loaded = planned;
  return loaded;
}

/**
 * Threads of the inter-op pool, counted by name in /proc/self/task (TF
 * names them tf_Compute); null where that is not readable (not Linux). The
 * intra-op pool's threads carry no name and the C API has no getter, so
 * only the inter-op count can be read back; both come from the same
 * environment read, so a match confirms the variables took effect.
 */
export function interOpThreadsReadBack(): number | null {
  try {
    let n = 0;
    for (const task of readdirSync('/proc/self/task')) {
      try {
        if (readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim() === 'tf_Compute') n++;
      } catch {
        // The thread exited between readdir and read.
      }
    }
    return n > 0 ? n : null;
  } catch {
    return null;
  }
}

/** Version of the TensorFlow C library behind the active 'tensorflow' backend (tfjs-node's binding reports TF_Version). */
export function libtensorflowVersion(tf: Tf): string | null {
  try {
    const backend = tf.findBackend('tensorflow') as { binding?: { TF_Version?: unknown } } | null;
    return typeof backend?.binding?.TF_Version === 'string' ? backend.binding.TF_Version : null;
  } catch {
    return null;
  }
}

/** True when `pkg` can be resolved from the engine's folder (it is installed). */
export function isInstalled(pkg: string): boolean {
  return installedDir(pkg) !== null;
}

/** One probe per package and process: tfjs-node's engines (plain, saved-model, graph-model) load the same library, so they share its answer. */
const probes = new Map<string, Promise<ChildProbe>>();

/**
 * Imports `pkg` in a child Node (see the module comment) and reports whether
 * it registered the 'tensorflow' backend; about 1.6 CPU-s, paid once per
 * package (it was once per engine: three child starts for `inferbench
 * engines`), and not at all while an earlier process's ok answer for the
 * same files and environment is remembered in the cache (native-probe-memo.ts).
 */
export function probeInChild(pkg: string): Promise<ChildProbe> {
  let probe = probes.get(pkg);
  if (!probe) {
    const packageDir = installedDir(pkg);
    probe = packageDir === null ? probeOnce(pkg) : rememberedProbe(pkg, packageDir, () => probeOnce(pkg));
    probes.set(pkg, probe);
  }
  return probe;
}

/** The folder `pkg` is installed in, as this module resolves it; null where it does not. */
function installedDir(pkg: string): string | null {
  try {
    return dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    return null;
  }
}

function probeOnce(pkg: string): Promise<ChildProbe> {
  const script = fileURLToPath(new URL('./native-probe-child.js', import.meta.url));
  return new Promise((resolve) => {
    execFile(process.execPath, [script, pkg], { timeout: 120_000, env: { ...process.env, TF_CPP_MIN_LOG_LEVEL: '2' } }, (err, stdout, stderr) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        return resolve(JSON.parse(line) as ChildProbe);
      } catch {
        const why = (stderr.trim().split('\n').find((l) => /Error|error/.test(l)) ?? stderr.trim().split('\n')[0] ?? String(err)).trim();
        resolve({ ok: false, error: why || `probe process exited with ${String(err?.message ?? 'no output')}` });
      }
    });
  });
}
