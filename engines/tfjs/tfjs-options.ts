/**
 * The options of the tfjs engines (`--engine-options`): tfjs environment
 * flags, one frozen table per backend, registered beside the engines in
 * tfjs-register.ts. A flag is applied with `tf.env().set` as soon as the
 * backend package has registered it and before the backend starts, and
 * read back with `tf.env().getAsync` once the session's backend is active.
 *
 * The WASM flags are read once, as tfjs-backend-wasm initialises (they pick
 * the .wasm binary), so a variant's engine object is `configure`d with them
 * before its probe starts the backend (engine-registry.ts). A process whose
 * backend already started with other values cannot honour them: that cell
 * is skipped with the reason (an isolated run, the default, gives every open
 * a fresh process).
 *
 * Not offered: WEBGPU_CPU_FORWARD (each executor pins it: the translator off,
 * the GraphModel executor on; see tfjs-backend.ts) and WEBGL_PACK (no
 * WebGL backend runs in Node).
 */
import { optionTable, typedValue, type EngineOptionSpec, type EngineOptionTable, type EngineOptionValues } from '../../src/core/engine-options.js';
import { CellSkip } from '../../src/core/errors.js';

const READ_BACK = 'tf.env().getAsync(flag) once the backend is active';

/** Flags read when the backend initialises; a running backend ignores a change to them. */
const AT_INIT = new Set(['WASM_HAS_SIMD_SUPPORT', 'WASM_HAS_MULTITHREAD_SUPPORT']);

const WASM_SIMD: EngineOptionSpec = {
  key: 'WASM_HAS_SIMD_SUPPORT',
  type: { kind: 'boolean' },
  default: 'true',
  doc: 'load the SIMD build of the wasm kernels (false: the scalar build)',
  applied: "tf.env().set before tfjs-backend-wasm initialises (it picks the .wasm file by this flag)",
  readBack: READ_BACK,
};

const WASM_THREADS: EngineOptionSpec = {
  key: 'WASM_HAS_MULTITHREAD_SUPPORT',
  type: { kind: 'boolean' },
  default: 'detected',
  doc: 'load the threaded build of the wasm kernels where the host allows it',
  applied: 'tf.env().set before tfjs-backend-wasm initialises',
  readBack: READ_BACK,
};

const WEBGPU_BATCH: EngineOptionSpec = {
  key: 'WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE',
  type: { kind: 'integer', min: 1, max: 1000 },
  default: '15',
  doc: 'GPU commands recorded before tfjs-backend-webgpu submits them to the queue',
  applied: 'tf.env().set before the backend starts',
  readBack: READ_BACK,
};

const HANDOFF: EngineOptionSpec = {
  key: 'CPU_HANDOFF_SIZE_THRESHOLD',
  type: { kind: 'integer', min: 0, max: 1_000_000 },
  default: '128',
  doc: 'tensors under this many elements whose inputs are on the CPU may run on the CPU backend (with CPU forwarding on)',
  applied: 'tf.env().set before the backend starts',
  readBack: READ_BACK,
};

/** tfjs-wasm and its GraphModel executor. */
export const TFJS_WASM_OPTIONS = optionTable([WASM_SIMD, WASM_THREADS]);
/** tfjs-webgpu and its GraphModel executor. */
export const TFJS_WEBGPU_OPTIONS = optionTable([WEBGPU_BATCH, HANDOFF]);

/** `inferbench tune`'s candidates besides the defaults, per table. */
const WASM_GRID: readonly EngineOptionValues[] = [{ WASM_HAS_SIMD_SUPPORT: 'false' }];
const WEBGPU_GRID: readonly EngineOptionValues[] = [{ WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE: '1' }, { WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE: '64' }];

/** Engine ids with their tables and tune grids. */
export const TFJS_TUNE_GRIDS: Readonly<Record<string, readonly EngineOptionValues[]>> = {
  'tfjs-wasm': WASM_GRID,
  'tfjs-wasm-graph-model': WASM_GRID,
  'tfjs-webgpu': WEBGPU_GRID,
  'tfjs-webgpu-graph-model': WEBGPU_GRID,
};

/** Engine ids and their tables. */
export const TFJS_OPTION_TABLES: Readonly<Record<string, EngineOptionTable>> = {
  'tfjs-wasm': TFJS_WASM_OPTIONS,
  'tfjs-wasm-graph-model': TFJS_WASM_OPTIONS,
  'tfjs-webgpu': TFJS_WEBGPU_OPTIONS,
  'tfjs-webgpu-graph-model': TFJS_WEBGPU_OPTIONS,
};

/** What `tf.env()` offers here. */
interface TfEnvLike {
  env(): { set(flag: string, value: unknown): void; getAsync(flag: string): Promise<unknown> | unknown; getFlags(): Record<string, unknown> };
  engine(): { readonly registry: Record<string, unknown> };
}

/** Flags of the variant this process's engine was configured with (`configure`, before the probe): tfjs's flags are global. */
let preset: EngineOptionValues = {};

/** Keeps `values` to apply as the backend package is imported (`applyTfjsFlags`). */
export function presetTfjsFlags(values: EngineOptionValues): void {
  preset = { ...preset, ...values };
}

function specOf(key: string): EngineOptionSpec {
  return (TFJS_WASM_OPTIONS[key] ?? TFJS_WEBGPU_OPTIONS[key]) as EngineOptionSpec;
}

/**
 * Sets `values` (or the preset) on tfjs's env for `backend` (its tfjs
 * name). Once `backend` runs, an init-time flag whose value differs cannot
 * change: a CellSkip says so rather than read back a value that did not act.
 */
export async function applyTfjsFlags(tf: TfEnvLike, backend: string, values: EngineOptionValues | undefined): Promise<void> {
  const all = { ...preset, ...(values ?? {}) };
  const started = tf.engine().registry[backend] != null;
  for (const [key, text] of Object.entries(all)) {
    const value = typedValue(specOf(key), text);
    if (started && AT_INIT.has(key)) {
      if ((await tf.env().getAsync(key)) !== value) throw new CellSkip(`${key}=${text} needs a fresh process: tfjs's ${backend} backend already started here with ${String(await tf.env().getAsync(key))} (run isolated)`);
      continue;
    }
    tf.env().set(key, value);
  }
}

/** Each of the variant's flags as tfjs holds it now. */
export async function readTfjsFlags(tf: TfEnvLike, values: EngineOptionValues | undefined): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(values ?? {})) out[key] = String(await tf.env().getAsync(key));
  return out;
}

/** Flags tfjs holds at another value than the variant set (it lowered or refused them), one line each. */
export function ignoredTfjsFlags(values: EngineOptionValues | undefined, readBack: Readonly<Record<string, string>>): string[] {
  return Object.entries(values ?? {})
    .filter(([k, v]) => readBack[k] !== undefined && readBack[k] !== v)
    .map(([k, v]) => `${k}=${v} not kept: tfjs holds ${readBack[k] as string}`);
}
