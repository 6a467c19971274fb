import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Availability, Engine, EngineTrainer, ResolvedSessionOptions, TfjsBackend, TrainerOptions } from '../../src/core/engine.js';
import { CellSkip } from '../../src/core/errors.js';
import { nvidiaGpus } from '../../src/core/gpu.js';
import type { EngineSession, LoadPhases, SessionDescription } from '../../src/core/engine-session.js';
import { LoadPhaseClock } from '../../src/core/load-phases.js';
import type { TensorMap } from '../../src/core/tensor.js';
import type { TfjsGraphExecutor } from './graph-executor.js';
import type { OnnxModel } from './onnx-model.js';
import { nativeDevice, type NativeBackendLike } from './native-device.js';
import { importNative, interOpThreadsReadBack, isInstalled, libtensorflowVersion, nativeThreads, probeInChild, type NativeThreads } from './native-library.js';

type Tf = typeof import('@tensorflow/tfjs-core');

const require = createRequire(import.meta.url);

interface BackendSpec {
  readonly id: string;
  /** npm package that registers the backend. */
  readonly pkg: string;
  /** Name the package registers with tfjs-core (tfjs-node registers 'tensorflow'). */
  readonly tfName: string;
  readonly description: string;
  /** cpu and wasm cannot change their thread count from Node; null for libtensorflow, sized at import (native-library.ts). */
  readonly fixedThreads: number | null;
}

const SPECS: Readonly<Record<TfjsBackend, BackendSpec>> = {
  cpu: {
    id: 'tfjs-cpu',
    pkg: '@tensorflow/tfjs-backend-cpu',
    tfName: 'cpu',
    description: 'TensorFlow.js plain-JavaScript CPU backend (ONNX graph translated to tfjs ops)',
    fixedThreads: 1,
  },
  wasm: {
    id: 'tfjs-wasm',
    pkg: '@tensorflow/tfjs-backend-wasm',
    tfName: 'wasm',
    description: 'TensorFlow.js WebAssembly backend, XNNPACK + SIMD, single-threaded in Node (ONNX graph translated to tfjs ops)',
    fixedThreads: 1,
  },
  node: {
    id: 'tfjs-node',
    pkg: '@tensorflow/tfjs-node',
    tfName: 'tensorflow',
    description: 'TensorFlow.js on native libtensorflow, CPU (ONNX graph translated to tfjs ops)',
    fixedThreads: null,
  },
  'node-gpu': {
    id: 'tfjs-node-gpu',
    pkg: '@tensorflow/tfjs-node-gpu',
    tfName: 'tensorflow',
    description: 'TensorFlow.js on native libtensorflow with CUDA (ONNX graph translated to tfjs ops)',
    fixedThreads: null,
  },
};

const CORE_PKG = '@tensorflow/tfjs-core';
/** The offline way to tfjs-node, for both fixes below: the CPU build only (tfjs-node-gpu needs CUDA's libtensorflow). */
const OFFLINE_TFJS_NODE = 'offline, `npm run setup:tfjs-node` in an inferbench checkout builds it from a local tensorflow-cpu wheel';
/** How to fix a tfjs-node whose binding or libtensorflow does not load. */
function failedNativeEnable(pkg: string): string {
  return `reinstall ${pkg} (its install downloads libtensorflow, so it needs internet); ${OFFLINE_TFJS_NODE}`;
}
const NOTE_TRANSLATED = 'ONNX graph translated to tfjs ops by inferbench';
/** tfjs-node-gpu with the package present but no GPU. */
const NO_GPU: Availability = { available: false, reason: 'no NVIDIA GPU was found (no /dev/nvidia0, nvidia-smi fails)', enable: 'run on a machine with an NVIDIA GPU and its driver, CUDA 11.2 and cuDNN 8.1' };

function packageVersion(pkg: string): string {
  return (require(`${pkg}/package.json`) as { version: string }).version;
}

/** True when an NVIDIA driver is visible; the device node is checked first because spawning nvidia-smi is slow. */
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
  const mod = (await import(pkg)) as { setWasmPaths?: (prefix: string) => void };
  if (spec.tfName === 'wasm' && !wasmPathsSet) {
    const dist = dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm'));
    mod.setWasmPaths?.(`${dist}/`);
    wasmPathsSet = true;
  }
  return tf;
}

/** Makes `name` tfjs's global backend and confirms it, because setBackend reports failure by returning false. */
async function activate(tf: Tf, name: string): Promise<void> {
  // engine().backendName, unlike getBackend(), does not initialise the highest-priority backend as a side effect.
  if (tf.engine().backendName === name) return;
  const ok = await tf.setBackend(name);
  await tf.ready();
  if (!ok || tf.getBackend() !== name) throw new Error(`tfjs backend '${name}' failed to initialise (active: ${tf.getBackend()})`);
}

class TfjsSession implements EngineSession {
  constructor(
    private readonly tf: Tf,
    private readonly executor: TfjsGraphExecutor,
    private readonly description: SessionDescription,
    private readonly backendName: string,
    private readonly phases: LoadPhases,
  ) {}

  loadPhases(): LoadPhases {
    return this.phases;
  }

  /** tfjs-core has one global backend; another session may have switched it since load, so switch back (a string compare when nothing changed). */
  async run(inputs: TensorMap): Promise<TensorMap> {
    if (this.tf.engine().backendName !== this.backendName) await activate(this.tf, this.backendName);
    return this.executor.run(inputs);
  }

  describe(): SessionDescription {
    return this.description;
  }

  /** tfjs's own account of live tensors and bytes, reported beside RSS. */
  memory(): { numTensors: number; numBytes: number } {
    const m = this.tf.memory();
    return { numTensors: m.numTensors, numBytes: m.numBytes };
  }

  async dispose(): Promise<void> {
    this.executor.dispose();
  }
}

class TfjsEngine implements Engine {
  readonly id: string;
  readonly target: { readonly family: 'tfjs'; readonly backend: TfjsBackend };
  readonly description: string;
  private readonly spec: BackendSpec;
  private availability: Promise<Availability> | undefined;

  constructor(backend: TfjsBackend) {
    this.spec = SPECS[backend];
    this.id = this.spec.id;
    this.target = { family: 'tfjs', backend };
    this.description = this.spec.description;
  }

  probe(): Promise<Availability> {
    this.availability ??= this.doProbe();
    return this.availability;
  }

  private async doProbe(): Promise<Availability> {
    const { spec } = this;
    const native = spec.tfName === 'tensorflow';
    const gpu = this.target.backend === 'node-gpu';
    const gpuPresent = gpu ? nvidiaGpus().length > 0 : true;
    if (native && !nativeThreads()) return this.probeNative(gpuPresent);
    let tf: Tf;
    try {
      tf = await importBackend(spec);
    } catch (err) {
      const missing = (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' || /Cannot find (module|package)/.test(String(err));
      if (!missing) return { available: false, reason: `${spec.pkg} failed to load: ${String(err).split('\n')[0]}`, enable: `reinstall ${spec.pkg}` };
      return this.notInstalled(gpuPresent);
    }
    if (!gpuPresent) {
      return NO_GPU;
    }
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
    const tensorflow = native ? libtensorflowVersion(tf) : null;
    return { available: true, versions: tensorflow ? { ...versions, libtensorflow: tensorflow } : versions };
  }

  private notInstalled(gpuPresent: boolean): Availability {
    const { spec } = this;
    const native = spec.tfName === 'tensorflow';
    const gpu = this.target.backend === 'node-gpu';
    const reason = `${spec.pkg} is not installed${gpuPresent ? '' : ' and no NVIDIA GPU was found (no /dev/nvidia0, nvidia-smi fails)'}`;
    const enable = native
      ? `npm install ${spec.pkg} (its install downloads libtensorflow, so it needs internet)` +
        (gpu ? '; it also needs an NVIDIA GPU with the CUDA 11.2 and cuDNN 8.1 libraries that tfjs-node-gpu 4.x links against' : `; ${OFFLINE_TFJS_NODE}`)
      : `npm install ${spec.pkg}`;
    return { available: false, reason, enable };
  }

  /**
   * For load() while libtensorflow is not in this process: the in-process
   * import with the requested threads is the probe (a child would only
   * repeat it). The answer is kept as this engine's probe result.
   */
  private async loadableNative(threads: number | null): Promise<Availability> {
    const { spec } = this;
    const gpuPresent = this.target.backend === 'node-gpu' ? nvidiaGpus().length > 0 : true;
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
   * libtensorflow not loaded here yet: import it in a child process, so this
   * one can still choose its thread pools at load (native-library.ts).
   */
  private async probeNative(gpuPresent: boolean): Promise<Availability> {
    const { spec } = this;
    if (!isInstalled(spec.pkg)) return this.notInstalled(gpuPresent);
    if (!gpuPresent) {
      return NO_GPU;
    }
    const child = await probeInChild(spec.pkg);
    if (!child.ok) {
      return {
        available: false,
        reason: `${spec.pkg} failed to load: ${child.error}`,
        enable: failedNativeEnable(spec.pkg),
      };
    }
    const versions = { [CORE_PKG]: packageVersion(CORE_PKG), [spec.pkg]: packageVersion(spec.pkg) };
    return { available: true, versions: child.tensorflow ? { ...versions, libtensorflow: child.tensorflow } : versions };
  }

  async load(onnxPath: string, options: ResolvedSessionOptions): Promise<EngineSession> {
    const clock = new LoadPhaseClock();
    const { tf, description, backend, model } = await this.prepare(onnxPath, options, clock);
    const executor = await clock.time('createMs', async () => {
      const { TfjsGraphExecutor } = await import('./graph-executor.js');
      // Weights become tensors of the active backend, so it must be ours while the executor is built.
      await activate(tf, backend);
      return new TfjsGraphExecutor(model);
    });
    return new TfjsSession(tf, executor, withPrecision(description, executor.quantizedNotes, options), backend, clock.phases());
  }

  /**
   * The graph for `inferbench train`: float initializers become tf.Variables
   * and tfjs's autodiff computes their gradients (trainable-graph.ts).
   */
  async loadTrainer(onnxPath: string, options: ResolvedSessionOptions & TrainerOptions): Promise<EngineTrainer> {
    const { tf, description, backend, model } = await this.prepare(onnxPath, options);
    const [{ TrainableGraph }, { TfjsTrainer }] = await Promise.all([import('./trainable-graph.js'), import('./tfjs-trainer.js')]);
    await activate(tf, backend);
    const graph = new TrainableGraph(model);
    const notes = [...(withPrecision(description, [], options).notes ?? []), `trained with tfjs autodiff (tf.variableGrads), ${graph.variables.size} float initializers as tf.Variables, graph unfused`];
    return new TfjsTrainer(graph, options, { ...description, notes }, () => activate(tf, backend));
  }

  /** Everything load and loadTrainer share: thread checks, backend activation, device read-back, the parsed graph and the row description. */
  private async prepare(
    onnxPath: string,
    options: ResolvedSessionOptions,
    clock = new LoadPhaseClock(),
  ): Promise<{ tf: Tf; description: SessionDescription; backend: string; model: OnnxModel }> {
    const { spec } = this;
    const native = spec.tfName === 'tensorflow';
    const before = nativeThreads();
    if (native && before && options.threads !== null && options.threads !== before.intraOp) {
      throw new CellSkip(
        `${spec.id} already loaded libtensorflow with ${before.intraOp} intra-op thread(s) in this process; ${options.threads} needs a separate process (run isolated)`,
      );
    }
    if (!native && options.threads !== null && options.threads !== spec.fixedThreads) {
      throw new CellSkip(
        spec.fixedThreads === 1
          ? `${spec.id} runs on one thread in Node; requested ${options.threads}`
          : `${spec.id} does not let inferbench set its thread count; requested ${options.threads}`,
      );
    }
    // libtensorflow is loaded here rather than probed in a child: this import is what sizes its pools.
    const tf = await clock.time('importMs', async () => {
      const availability = native && !before ? await this.loadableNative(options.threads) : await this.probe();
      if (!availability.available) throw new CellSkip(`${spec.id} is not available: ${availability.reason}`);
      const imported = await importBackend(spec, options.threads);
      await activate(imported, spec.tfName);
      return imported;
    });
    // libtensorflow without CUDA runs on the CPU silently; read the device it took before loading anything.
    const device = spec.tfName === 'tensorflow' ? nativeDevice(tf.backend() as NativeBackendLike, this.target.backend === 'node-gpu') : null;
    if (device !== null && !device.ok) throw new Error(device.reason);
    // Parsing the graph and (in load) building the executor are the session create.
    const model = await clock.time('createMs', async () => (await import('./onnx-model.js')).readOnnxModel(onnxPath));
    await activate(tf, spec.tfName);
    const backend = tf.getBackend();
    const notes = [NOTE_TRANSLATED, 'int64 tensors computed as int32 (tfjs has no int64)'];
    if (spec.fixedThreads === 1) notes.push('single-threaded in Node');
    if (spec.tfName === 'wasm') notes.push(`wasm SIMD ${(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')) ? 'on' : 'off'}`);
    if (device?.ok) notes.push(...device.notes);
    const versions: Record<string, string> = { [CORE_PKG]: packageVersion(CORE_PKG), [spec.pkg]: packageVersion(spec.pkg), ...(device?.ok ? device.versions : {}) };
    let threads = spec.fixedThreads;
    if (native) {
      const pools = nativeThreads() as NativeThreads;
      threads = pools.intraOp;
      notes.push(threadsNote(pools));
      notes.push('small LayerNorm and GELU tensors computed in JS between libtensorflow ops (one copy each way instead of ~12 eager op dispatches; see custom-kernels.ts)');
      const tensorflow = libtensorflowVersion(tf);
      if (tensorflow) versions['libtensorflow'] = tensorflow;
    }
    const description: SessionDescription = {
      engine: spec.id,
      backend: device?.ok ? device.backend : backend,
      threads,
      precision: 'fp32',
      versions,
      notes,
    };
    return { tf, description, backend, model };
  }
}

/**
 * The row's precision and its note. A quantized graph's integer ops are
 * emulated exactly (or, for MatMulNBits, dequantized) and the executor's
 * notes say which; any other non-fp32 graph is computed in fp32, since the
 * translation widens every float.
 */
function withPrecision(description: SessionDescription, quantizedNotes: readonly string[], options: ResolvedSessionOptions): SessionDescription {
  const notes = [...(description.notes ?? [])];
  const quantized = quantizedNotes.length > 0;
  if (quantized) notes.push(...quantizedNotes);
  else if (options.precision !== 'fp32' && options.precision !== 'unknown') notes.push(`${options.precision} graph computed in fp32 (tfjs translation widens every float)`);
  return { ...description, precision: quantized ? options.precision : 'fp32', notes };
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

/**
 * The TensorFlow.js engines. They run the same ONNX file as the ONNX Runtime
 * engines by translating its graph to tfjs ops at load, so every engine
 * benchmarks identical weights and structure.
 */
export function createTfjsEngine(backend: TfjsBackend): Engine {
  return new TfjsEngine(backend);
}
