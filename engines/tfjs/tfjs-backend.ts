/**
 * One TensorFlow.js backend (node, node-gpu, wasm, cpu) as the tfjs engines
 * use it, whatever executor runs the model on it (inferbench's translator,
 * tfjs-converter's GraphModel executor, a TensorFlow session): importing
 * the backend package lazily, probing it, checking the thread request,
 * sizing libtensorflow's pools at import, and reading back the device and
 * versions every row records.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Availability, ResolvedSessionOptions, TfjsBackend } from '../../src/core/engine.js';
import { CellSkip } from '../../src/core/errors.js';
import { nvidiaGpus } from '../../src/core/gpu.js';
import { describeAdapter, type AdapterInfoLike, type GpuAdapter } from '../../src/core/gpu-adapter.js';
import { installedVersion } from '../../src/core/package-info.js';
import { installNavigatorGpu, webGpuAvailability, WEBGPU_PKG } from '../webgpu/dawn-adapter.js';
import type { SessionDescription } from '../../src/core/engine-session.js';
import { applyTfjsFlags, ignoredTfjsFlags, readTfjsFlags } from './tfjs-options.js';
import { canonicalOptions } from '../../src/core/engine-options.js';
import { OpenPhaseClock } from '../../src/core/open-phases.js';
import { nativeDevice, type NativeBackendLike } from './native-device.js';
import { inIsolatedProcess } from '../../src/core/isolated-process.js';
import { importNative, interOpThreadsReadBack, isInstalled, libtensorflowVersion, nativeThreads, probeInChild, type NativeThreads } from './native-library.js';

export type Tf = typeof import('@tensorflow/tfjs-core');

const require = createRequire(import.meta.url);

export interface BackendSpec {
  readonly id: string;
  /** npm package that registers the backend. */
  readonly pkg: string;
  /** Name the package registers with tfjs-core (tfjs-node registers 'tensorflow'). */
  readonly tfName: string;
  /** What the backend is, without the executor (tfjs-engine.ts and native-engine.ts add theirs). */
  readonly description: string;
  /** cpu and wasm cannot change their thread count from Node; null for libtensorflow, sized at import (native-library.ts). */
  readonly fixedThreads: number | null;
}

export const BACKEND_SPECS: Readonly<Record<TfjsBackend, BackendSpec>> = {
  cpu: { id: 'tfjs-cpu', pkg: '@tensorflow/tfjs-backend-cpu', tfName: 'cpu', description: 'TensorFlow.js plain-JavaScript CPU backend', fixedThreads: 1 },
  wasm: { id: 'tfjs-wasm', pkg: '@tensorflow/tfjs-backend-wasm', tfName: 'wasm', description: 'TensorFlow.js WebAssembly backend, XNNPACK + SIMD, single-threaded in Node', fixedThreads: 1 },
  node: { id: 'tfjs-node', pkg: '@tensorflow/tfjs-node', tfName: 'tensorflow', description: 'TensorFlow.js on native libtensorflow, CPU', fixedThreads: null },
  'node-gpu': { id: 'tfjs-node-gpu', pkg: '@tensorflow/tfjs-node-gpu', tfName: 'tensorflow', description: 'TensorFlow.js on native libtensorflow with CUDA', fixedThreads: null },
  webgpu: { id: 'tfjs-webgpu', pkg: '@tensorflow/tfjs-backend-webgpu', tfName: 'webgpu', description: "TensorFlow.js WebGPU backend in Node, on Dawn (the webgpu package's dawn.node, Vulkan)", fixedThreads: null },
};

export const CORE_PKG = '@tensorflow/tfjs-core';
/** The offline way to tfjs-node, for both fixes below: the CPU build only (tfjs-node-gpu needs CUDA's libtensorflow). */
const OFFLINE_TFJS_NODE = 'offline, `npm run setup:tfjs-node` in an inferbench checkout builds it from a local tensorflow-cpu wheel';
/** How to fix a tfjs-node whose binding or libtensorflow does not load. */
function failedNativeEnable(pkg: string): string {
  return `reinstall ${pkg} (its install downloads libtensorflow, so it needs internet); ${OFFLINE_TFJS_NODE}`;
}
/** tfjs-node-gpu with the package present but no GPU. */
const NO_GPU: Availability = { available: false, reason: 'no NVIDIA GPU was found (no /dev/nvidia0, nvidia-smi fails)', enable: 'run on a machine with an NVIDIA GPU and its driver, CUDA 11.2 and cuDNN 8.1' };
/** What tfjs-node-gpu needs that npm does not bring: its install script downloads a CUDA build of libtensorflow from Google's storage. */
const NODE_GPU_LIBRARY =
  "libtensorflow.so.2 built with CUDA, which tfjs-node-gpu's install script (scripts/install.js) downloads from storage.googleapis.com into node_modules/@tensorflow/tfjs-node-gpu/deps/lib";
const NODE_GPU_ENABLE =
  'npm install @tensorflow/tfjs-node-gpu on a machine with internet (or copy its deps/lib/libtensorflow*.so.2 and lib/napi-v8/tfjs_binding.node from such an install), with CUDA 11.2 and cuDNN 8.1; tfjs-webgpu is the GPU path that works from npm alone';

export function packageVersion(pkg: string): string {
  return (require(`${pkg}/package.json`) as { version: string }).version;
}

let wasmPathsSet = false;

/**
 * Imports the backend package (lazily: the CLI's --help must not pay for
 * tfjs) and, for wasm, points it at the .wasm binaries on disk, since the
 * Node build otherwise looks beside the bundled script.
 */
async function importBackend(spec: BackendSpec, threads: number | null = null): Promise<Tf> {
  const tf = await import('@tensorflow/tfjs-core');
  // Production mode only silences tfjs console warnings (the "install tfjs-node" banner would land in every report).
  tf.enableProdMode();
  const pkg: string = spec.pkg;
  if (spec.tfName === 'tensorflow') {
    await importNative(tf, pkg, threads);
    return tf;
  }
  // tfjs-backend-webgpu registers its backend only if navigator.gpu exists when its module is evaluated.
  if (spec.tfName === 'webgpu') await installNavigatorGpu();
  const mod = (await import(pkg)) as { setWasmPaths?: (prefix: string) => void };
  // The package has registered its flags: a configured variant's (tfjs-options.ts) are set before the backend starts.
  await applyTfjsFlags(tf as never, spec.tfName, undefined);
  if (spec.tfName === 'wasm' && !wasmPathsSet) {
    const dist = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
    mod.setWasmPaths?.(`${dist}/`);
    wasmPathsSet = true;
  }
  return tf;
}

/** Makes `name` tfjs's global backend and confirms it, because setBackend reports failure by returning false. */
export async function activate(tf: Tf, name: string): Promise<void> {
  // engine().backendName, unlike getBackend(), does not initialise the highest-priority backend as a side effect.
  if (tf.engine().backendName === name) return;
  const ok = await tf.setBackend(name);
  await tf.ready();
  if (!ok || tf.getBackend() !== name) throw new Error(`tfjs backend '${name}' failed to initialise (active: ${tf.getBackend()})`);
}

/** tfjs's own account of live tensors and bytes, reported beside RSS by every tfjs session. */
export function tfjsMemory(tf: Tf): { numTensors: number; numBytes: number } {
  const m = tf.memory();
  return { numTensors: m.numTensors, numBytes: m.numBytes };
}

/** A backend made ready for one session: tfjs with it active, and the row's description of it. */
export interface PreparedBackend {
  readonly tf: Tf;
  /** Engine, backend as read back (device for libtensorflow), threads, precision fp32, versions, the backend's own notes. */
  readonly description: SessionDescription;
  /** The tfjs backend name to switch back to before each run. */
  readonly backend: string;
  /** True on tfjs-node(-gpu): libtensorflow is loaded. */
  readonly native: boolean;
}

/**
 * Probing and preparing one backend. Each engine (an executor on a
 * backend) has its own, so probes are cached per engine as the registry
 * expects; the work they repeat is one import.
 */
export class TfjsBackendHost {
  readonly spec: BackendSpec;
  private availability: Promise<Availability> | undefined;

  constructor(readonly backend: TfjsBackend) {
    this.spec = BACKEND_SPECS[backend];
  }

  get native(): boolean {
    return this.spec.tfName === 'tensorflow';
  }

  probe(): Promise<Availability> {
    this.availability ??= this.doProbe();
    return this.availability;
  }

  private async doProbe(): Promise<Availability> {
    const { spec } = this;
    const gpu = this.backend === 'node-gpu';
    const gpuPresent = gpu ? nvidiaGpus().length > 0 : true;
    // In an isolated child the open's own import is the probe (importableNative); a probe child would only repeat it.
    if (this.native && !nativeThreads()) return inIsolatedProcess() ? this.installedNative(gpuPresent) : this.probeNative(gpuPresent);
    // Dawn's adapter is probed in a child first: importing the backend here would give this process a navigator.gpu for nothing.
    const webgpu = spec.tfName === 'webgpu' ? await webGpuAvailability({}) : null;
    if (webgpu !== null && !webgpu.available) return webgpu;
    let tf: Tf;
    try {
      tf = await importBackend(spec);
    } catch (err) {
      const missing = (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' || /Cannot find (module|package)/.test(String(err));
      if (!missing) return { available: false, reason: `${spec.pkg} failed to load: ${String(err).split('\n')[0]}`, enable: `reinstall ${spec.pkg}` };
      return this.notInstalled(gpuPresent);
    }
    if (!gpuPresent) return NO_GPU;
    if (tf.findBackendFactory(spec.tfName) == null) {
      return { available: false, reason: `${spec.pkg} loaded but registered no '${spec.tfName}' backend with ${CORE_PKG} ${tf.version_core} (two tfjs-core copies?)`, enable: `npm dedupe ${CORE_PKG}` };
    }
    if (spec.tfName === 'wasm') {
      // Initialising is the only proof the .wasm binary loads; restore the previous backend afterwards.
      const previous: string | null = tf.engine().backendName ?? null;
      try {
        await activate(tf, 'wasm');
      } catch (err) {
        return { available: false, reason: `tfjs wasm backend failed to initialise: ${String(err)}`, enable: `reinstall ${spec.pkg}` };
      } finally {
        if (previous && previous !== 'wasm') await tf.setBackend(previous);
      }
    }
    const versions = { [CORE_PKG]: packageVersion(CORE_PKG), [spec.pkg]: packageVersion(spec.pkg) };
    const tensorflow = this.native ? libtensorflowVersion(tf) : null;
    if (webgpu?.available) return { ...webgpu, versions: { ...versions, ...webgpu.versions } };
    return { available: true, versions: tensorflow ? { ...versions, libtensorflow: tensorflow } : versions };
  }

  private notInstalled(gpuPresent: boolean): Availability {
    const { spec } = this;
    const gpu = this.backend === 'node-gpu';
    const reason = `${spec.pkg} is not installed${gpuPresent ? '' : ' and no NVIDIA GPU was found (no /dev/nvidia0, nvidia-smi fails)'}`;
    if (gpu) return { available: false, reason: `${reason}: it needs ${NODE_GPU_LIBRARY}`, enable: NODE_GPU_ENABLE };
    const enable = this.native ? `npm install ${spec.pkg} (its install downloads libtensorflow, so it needs internet); ${OFFLINE_TFJS_NODE}` : `npm install ${spec.pkg}`;
    return { available: false, reason, enable };
  }

  /**
   * For open() while libtensorflow is not in this process: the in-process
   * import with the requested threads is the probe (a child would only
   * repeat it). The answer is kept as this engine's probe result.
   */
  private async importableNative(threads: number | null): Promise<Availability> {
    const { spec } = this;
    const gpuPresent = this.backend === 'node-gpu' ? nvidiaGpus().length > 0 : true;
    let result: Availability;
    if (!isInstalled(spec.pkg)) result = this.notInstalled(gpuPresent);
    else if (!gpuPresent) result = NO_GPU;
    else {
      try {
        await importBackend(spec, threads);
        result = await this.doProbe();
      } catch (err) {
        result = { available: false, reason: `${spec.pkg} failed to load: ${String(err).split('\n')[0]}`, enable: failedNativeEnable(spec.pkg) };
      }
    }
    this.availability = Promise.resolve(result);
    return result;
  }

  /**
   * In an isolated child, before its open: installed (and a GPU present for
   * tfjs-node-gpu) is all the parent's probe left to check; the open's
   * in-process import decides, and a failure there skips the cell with the
   * import's error (importableNative).
   */
  private installedNative(gpuPresent: boolean): Availability {
    const { spec } = this;
    if (!isInstalled(spec.pkg)) return this.notInstalled(gpuPresent);
    if (!gpuPresent) return NO_GPU;
    return { available: true, versions: { [CORE_PKG]: packageVersion(CORE_PKG), [spec.pkg]: packageVersion(spec.pkg) } };
  }

  /**
   * libtensorflow not loaded here yet: import it in a child process, so this
   * one can still choose its thread pools at load (native-library.ts).
   */
  private async probeNative(gpuPresent: boolean): Promise<Availability> {
    const { spec } = this;
    if (!isInstalled(spec.pkg)) return this.notInstalled(gpuPresent);
    if (!gpuPresent) return NO_GPU;
    const child = await probeInChild(spec.pkg);
    if (!child.ok) return { available: false, reason: `${spec.pkg} failed to load: ${child.error}`, enable: failedNativeEnable(spec.pkg) };
    const versions = { [CORE_PKG]: packageVersion(CORE_PKG), [spec.pkg]: packageVersion(spec.pkg) };
    return { available: true, versions: child.tensorflow ? { ...versions, libtensorflow: child.tensorflow } : versions };
  }

  /**
   * Everything a session on this backend needs before its model is read:
   * thread checks, libtensorflow's import (which sizes its pools), backend
   * activation, the device read back, and the row's description under
   * `engineId`.
   */
  /** `clock` times the package import apart from the session create, so `open` is the create alone on every engine. */
  async prepare(engineId: string, options: ResolvedSessionOptions, clock = new OpenPhaseClock()): Promise<PreparedBackend> {
    const { spec } = this;
    const native = this.native;
    const before = nativeThreads();
    if (native && before && options.threads !== null && options.threads !== before.intraOp) {
      throw new CellSkip(
        `${engineId} already loaded libtensorflow with ${before.intraOp} intra-op thread(s) in this process; ${options.threads} needs a separate process (run isolated)`,
      );
    }
    if (!native && options.threads !== null && options.threads !== spec.fixedThreads) {
      throw new CellSkip(
        spec.fixedThreads === 1
          ? `${engineId} runs on one thread in Node; requested ${options.threads}`
          : `${engineId} does not let inferbench set its thread count; requested ${options.threads}`,
      );
    }
    // libtensorflow is loaded here rather than probed in a child: this import is what sizes its pools.
    const tf = await clock.time('importMs', async () => {
      const availability = native && !before ? await this.importableNative(options.threads) : await this.probe();
      if (!availability.available) throw new CellSkip(`${engineId} is not available: ${availability.reason}`);
      const imported = await importBackend(spec, options.threads);
      await applyTfjsFlags(imported as never, spec.tfName, options.engineOptions);
      // tfjs-webgpu otherwise runs small ops on its CPU backend without a word; every op stays on WebGPU, as in the browser engine.
      webGpuCpuForward(imported, spec.tfName, false);
      await activate(imported, spec.tfName);
      return imported;
    });
    // libtensorflow without CUDA runs on the CPU silently; read the device it took before loading anything.
    const device = native ? nativeDevice(tf.backend() as NativeBackendLike, this.backend === 'node-gpu') : null;
    if (device !== null && !device.ok) throw new Error(device.reason);
    const notes: string[] = [];
    if (spec.fixedThreads === 1) notes.push('single-threaded in Node');
    if (spec.tfName === 'wasm') notes.push(`wasm SIMD ${(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')) ? 'on' : 'off'}`);
    const adapter = spec.tfName === 'webgpu' ? webGpuBackendAdapter(tf) : undefined;
    if (adapter !== undefined) notes.push(...WEBGPU_NOTES);
    if (device?.ok) notes.push(...device.notes);
    const versions: Record<string, string> = { [CORE_PKG]: packageVersion(CORE_PKG), [spec.pkg]: packageVersion(spec.pkg), ...(device?.ok ? device.versions : {}) };
    let threads = spec.fixedThreads;
    if (native) {
      const pools = nativeThreads() as NativeThreads;
      threads = pools.intraOp;
      notes.push(threadsNote(pools));
      notes.push(oneDnnNote());
      const tensorflow = libtensorflowVersion(tf);
      if (tensorflow) versions['libtensorflow'] = tensorflow;
    }
    if (adapter !== undefined) versions[WEBGPU_PKG] = installedVersion(WEBGPU_PKG) ?? 'unknown';
    const backend = device?.ok ? device.backend : adapter !== undefined ? `webgpu on ${adapter.label}` : tf.getBackend();
    const readBack = await readTfjsFlags(tf as never, options.engineOptions);
    const ignored = ignoredTfjsFlags(options.engineOptions, readBack);
    const optionFields = { engineOptions: canonicalOptions(options.engineOptions ?? {}), ...(Object.keys(readBack).length > 0 ? { optionReadback: readBack } : {}), ...(ignored.length > 0 ? { ignoredOptions: ignored } : {}) };
    const description: SessionDescription = { engine: engineId, backend, threads, precision: 'fp32', versions, notes, ...(adapter === undefined ? {} : { adapter }), ...optionFields };
    return { tf, description, backend: tf.getBackend(), native };
  }
}

/** The translator's note on tfjs-webgpu's CPU forwarding (off); the GraphModel executor replaces it (webGpuCpuForward). */
export const WEBGPU_NO_FORWARD_NOTE = 'every op on WebGPU (WEBGPU_CPU_FORWARD off: no small op handed to the CPU)';
/** Why and how the GraphModel executor runs with tfjs's CPU forwarding on. */
export const WEBGPU_FORWARD_NOTE =
  "WEBGPU_CPU_FORWARD on (tfjs's default): tfjs-converter's executor reads shape tensors with dataSync, which tfjs-backend-webgpu can do in Node only for values already on the CPU, so small ops whose inputs are all on the CPU (under 128 elements: the shape arithmetic) run on tfjs's CPU backend";

/**
 * Sets tfjs-webgpu's CPU forwarding for the session about to run: tfjs's
 * flags are global to the process, and the translator (off) and the
 * GraphModel executor (on) may share it. A no-op on other backends.
 */
export function webGpuCpuForward(tf: Tf, backend: string, on: boolean): void {
  if (backend === 'webgpu' && tf.env().getBool('WEBGPU_CPU_FORWARD') !== on) tf.env().set('WEBGPU_CPU_FORWARD', on);
}

const WEBGPU_NOTES = [
  WEBGPU_NO_FORWARD_NOTE,
  'GPU backend: no thread count (the GPU, or a software adapter on the CPU, runs the shaders); outputs read back to host memory (dataSync/data) inside the timed call',
];

/** The adapter of the device tfjs-backend-webgpu created (GPUDevice.adapterInfo in Dawn), read off the active backend. */
function webGpuBackendAdapter(tf: Tf): GpuAdapter {
  const info = (tf.backend() as { device?: { adapterInfo?: AdapterInfoLike } }).device?.adapterInfo;
  if (info === undefined) throw new Error("tfjs-backend-webgpu's device has no adapterInfo, so the adapter it runs on cannot be read back");
  return describeAdapter(info, "tfjs-backend-webgpu's own device (GPUDevice.adapterInfo)");
}

/**
 * Whether TensorFlow runs its oneDNN kernels and graph rewrites (on by
 * default on x86 Linux since 2.9; TF_ENABLE_ONEDNN_OPTS=0 turns them off,
 * read by libtensorflow once at load): they change which kernels run and
 * their rounding.
 */
function oneDnnNote(): string {
  const env = process.env['TF_ENABLE_ONEDNN_OPTS'];
  if (env === undefined) return 'oneDNN kernels on (TensorFlow\'s default on x86; TF_ENABLE_ONEDNN_OPTS unset)';
  return `oneDNN kernels ${env === '0' || env.toLowerCase() === 'false' ? 'off' : 'on'} (TF_ENABLE_ONEDNN_OPTS=${env} at load)`;
}

/**
 * How libtensorflow's pools were sized. The intra-op count is the value of
 * TF_NUM_INTRAOP_THREADS it was loaded with (TF offers no read-back of it);
 * the inter-op count is read back from the threads TF made, where Linux lets us.
 */
function threadsNote(pools: NativeThreads): string {
  const origin = { requested: 'set by inferbench', environment: 'from the environment', default: 'TF default: schedulable cores' }[pools.source];
  const readBack = interOpThreadsReadBack();
  const inter = readBack === null ? `inter-op ${pools.interOp}` : `inter-op ${readBack} (read back)`;
  return `libtensorflow threads: intra-op ${pools.intraOp} (${origin}; TF_NUM_INTRAOP_THREADS at load, no read-back), ${inter}`;
}
