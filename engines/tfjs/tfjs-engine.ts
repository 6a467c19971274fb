import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { Availability, Engine, ResolvedSessionOptions, TfjsBackend } from '../../src/core/engine.js';
import { CellSkip } from '../../src/core/errors.js';
import { nvidiaGpus } from '../../src/core/gpu.js';
import type { EngineSession, SessionDescription } from '../../src/core/engine-session.js';
import type { TensorMap } from '../../src/core/tensor.js';
import type { TfjsGraphExecutor } from './graph-executor.js';
import { nativeDevice, type NativeBackendLike } from './native-device.js';

type Tf = typeof import('@tensorflow/tfjs-core');

const require = createRequire(import.meta.url);

interface BackendSpec {
  readonly id: string;
  /** npm package that registers the backend. */
  readonly pkg: string;
  /** Name the package registers with tfjs-core (tfjs-node registers 'tensorflow'). */
  readonly tfName: string;
  readonly description: string;
  /** cpu and wasm cannot change their thread count from Node; tfjs-node exposes no control either. */
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
const NOTE_TRANSLATED = 'ONNX graph translated to tfjs ops by inferbench';

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
async function importBackend(spec: BackendSpec): Promise<Tf> {
  const tf = await import('@tensorflow/tfjs-core');
  // Production mode only silences tfjs console warnings (the "install tfjs-node" banner would land in every report).
  tf.enableProdMode();
  const pkg: string = spec.pkg;
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
  ) {}

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
    let tf: Tf;
    try {
      tf = await importBackend(spec);
    } catch (err) {
      const missing = (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' || /Cannot find (module|package)/.test(String(err));
      if (!missing) return { available: false, reason: `${spec.pkg} failed to load: ${String(err).split('\n')[0]}`, enable: `reinstall ${spec.pkg}` };
      const reason = `${spec.pkg} is not installed${gpuPresent ? '' : ' and no NVIDIA GPU was found (no /dev/nvidia0, nvidia-smi fails)'}`;
      const enable = native
        ? `npm install ${spec.pkg} (its install downloads libtensorflow, so it needs internet)` +
          (gpu ? '; it also needs an NVIDIA GPU with the CUDA 11.2 and cuDNN 8.1 libraries that tfjs-node-gpu 4.x links against' : '')
        : `npm install ${spec.pkg}`;
      return { available: false, reason, enable };
    }
    if (!gpuPresent) {
      return { available: false, reason: 'no NVIDIA GPU was found (no /dev/nvidia0, nvidia-smi fails)', enable: 'run on a machine with an NVIDIA GPU and its driver, CUDA 11.2 and cuDNN 8.1' };
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
    return { available: true, versions: { [CORE_PKG]: packageVersion(CORE_PKG), [spec.pkg]: packageVersion(spec.pkg) } };
  }

  async load(onnxPath: string, options: ResolvedSessionOptions): Promise<EngineSession> {
    const { spec } = this;
    if (options.threads !== null && options.threads !== spec.fixedThreads) {
      throw new CellSkip(
        spec.fixedThreads === 1
          ? `${spec.id} runs on one thread in Node; requested ${options.threads}`
          : `${spec.id} does not let inferbench set its thread count; requested ${options.threads}`,
      );
    }
    const availability = await this.probe();
    if (!availability.available) throw new CellSkip(`${spec.id} is not available: ${availability.reason}`);
    const tf = await importBackend(spec);
    await activate(tf, spec.tfName);
    // libtensorflow without CUDA runs on the CPU silently; read the device it took before loading anything.
    const device = spec.tfName === 'tensorflow' ? nativeDevice(tf.backend() as NativeBackendLike, this.target.backend === 'node-gpu') : null;
    if (device !== null && !device.ok) throw new Error(device.reason);
    const [{ readOnnxModel }, { TfjsGraphExecutor }] = await Promise.all([import('./onnx-model.js'), import('./graph-executor.js')]);
    const model = await readOnnxModel(onnxPath);
    // Weights become tensors of the active backend, so it must be ours while the executor is built.
    await activate(tf, spec.tfName);
    const executor = new TfjsGraphExecutor(model);
    const backend = tf.getBackend();
    const notes = [NOTE_TRANSLATED, 'int64 tensors computed as int32 (tfjs has no int64)'];
    if (spec.fixedThreads === 1) notes.push('single-threaded in Node');
    if (options.precision !== 'fp32' && options.precision !== 'unknown') notes.push(`${options.precision} graph computed in fp32 (tfjs translation widens every float)`);
    if (spec.tfName === 'wasm') notes.push(`wasm SIMD ${(await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT')) ? 'on' : 'off'}`);
    if (device?.ok) notes.push(...device.notes);
    const description: SessionDescription = {
      engine: spec.id,
      backend: device?.ok ? device.backend : backend,
      threads: spec.fixedThreads,
      precision: 'fp32',
      versions: { [CORE_PKG]: packageVersion(CORE_PKG), [spec.pkg]: packageVersion(spec.pkg), ...(device?.ok ? device.versions : {}) },
      notes,
    };
    return new TfjsSession(tf, executor, description, backend);
  }
}

/**
 * The TensorFlow.js engines. They run the same ONNX file as the ONNX Runtime
 * engines by translating its graph to tfjs ops at load, so every engine
 * benchmarks identical weights and structure.
 */
export function createTfjsEngine(backend: TfjsBackend): Engine {
  return new TfjsEngine(backend);
}
