import { ortLogSeverity, quietOrtTelemetry } from '../../src/core/library-logs.js';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import type { Availability, Engine, ResolvedSessionOptions } from '../../src/core/engine.js';
import { declaredBy } from '../engine-target.js';
import type { EngineSession, OpenPhases, OpProfiler, PreparedCall, ProviderPlacement, SessionDescription } from '../../src/core/engine-session.js';
import { OpenPhaseClock } from '../../src/core/open-phases.js';
import { nvidiaGpus } from '../../src/core/gpu.js';
import { installedVersion, packageDir } from '../../src/core/package-info.js';
import { fromOrtOutputs, preparedOrtCall, toOrtFeeds, type OrtRunner, type OrtTensorCtor } from './ort-tensors.js';
import { ortNodeProfiler, type ProfilingOrtSession } from './ort-profile.js';
import { CPU_PROVIDER, noGpuNodes, placementBackend, profilePlacement, type OrtNodeLike } from './ort-placement.js';
import { dawnAdapter, webGpuAvailability } from '../webgpu/dawn-adapter.js';
import { ortOptionFields, ortSessionOptions } from './onnx-options.js';

// Before anything imports onnxruntime-node: this module's engines, and transformers.js's, whose engine module imports this one.
quietOrtTelemetry();

type NodeDevice = 'cpu' | 'cuda' | 'tensorrt' | 'webgpu';

const PROVIDER_NAMES: Readonly<Record<NodeDevice, string>> = {
  cpu: CPU_PROVIDER,
  cuda: 'CUDAExecutionProvider',
  tensorrt: 'TensorrtExecutionProvider',
  webgpu: 'WebGpuExecutionProvider',
};

const DEVICE_NAMES: Readonly<Record<NodeDevice, string>> = { cpu: 'CPU', cuda: 'CUDA', tensorrt: 'TensorRT', webgpu: 'WebGPU (Dawn on Vulkan, bundled in the linux-x64 binary)' };

/**
 * What the binding cannot change, said in every row: onnxruntime-node 1.30
 * passes a GPU provider nothing but `deviceId` (js/node/src/session_options_helper.cc),
 * so each runs with ORT's default provider options.
 */
const PROVIDER_NOTES: Readonly<Record<NodeDevice, readonly string[]>> = {
  cpu: [],
  cuda: ["CUDA provider with ORT's default options (onnxruntime-node passes only deviceId)"],
  tensorrt: [
    "TensorRT provider with ORT's defaults (onnxruntime-node passes only deviceId): fp32 (no fp16/int8), no engine cache, no explicit shape profiles",
    'each new input shape builds a TensorRT engine; the untimed warm pass over every shape keeps those builds out of the statistics',
  ],
  webgpu: [
    "WebGPU provider with ORT's default options; outputs on the CPU (ORT's default output location), so engine time ends with them in host memory",
  ],
};

/** How to get the provider libraries: onnxruntime-node's install script fetches them from NuGet (script/install-utils.js), which this repo's .npmrc skips by default. */
const INSTALL_GPU_LIBS =
  'run `ONNXRUNTIME_NODE_INSTALL=cuda12 node node_modules/onnxruntime-node/script/install.js` on a machine with internet ' +
  '(it fetches the CUDA/TensorRT providers from NuGet), or copy the .so files from such an install next to the binding; CUDA 12 and cuDNN 9 must be installed too. ' +
  'Without them, onnx-webgpu is the GPU path that works from npm alone';

/** Folder holding onnxruntime-node's native libraries for this platform. */
function ortBinaryDir(): string | null {
  const dir = packageDir('onnxruntime-node');
  if (dir === null) return null;
  return join(dir, 'bin', 'napi-v6', process.platform, process.arch);
}

function sharedLibraryOnPath(name: string): boolean {
  const res = spawnSync('ldconfig', ['-p'], { encoding: 'utf8', timeout: 5000 });
  return res.status === 0 && typeof res.stdout === 'string' && res.stdout.includes(name);
}

/** Checks, without loading anything, whether a GPU provider could work here. */
function gpuProviderProblem(device: 'cuda' | 'tensorrt'): Availability | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    return { available: false, reason: `onnxruntime-node ships ${device} only for linux/x64`, enable: 'use a linux/x64 machine with an NVIDIA GPU' };
  }
  // The missing library is named first, on a GPU machine as on a CPU one: it is the part npm did not bring.
  const bin = ortBinaryDir();
  const lib = `libonnxruntime_providers_${device}.so`;
  const noGpu = nvidiaGpus().length === 0;
  if (bin === null || !existsSync(join(bin, lib))) {
    return {
      available: false,
      reason: `${lib} is not next to onnxruntime-node's binding (${bin ?? 'onnxruntime-node not found'}): its install downloads it from NuGet (ONNXRUNTIME_NODE_INSTALL=cuda12, with internet), or copy it there${noGpu ? '; and no NVIDIA GPU was found (nvidia-smi lists none)' : ''}`,
      enable: INSTALL_GPU_LIBS,
    };
  }
  if (noGpu) {
    return { available: false, reason: 'no NVIDIA GPU found (nvidia-smi lists none)', enable: 'run on a machine with an NVIDIA GPU and driver' };
  }
  if (device === 'tensorrt' && !sharedLibraryOnPath('libnvinfer.so')) {
    return {
      available: false,
      reason: 'libnvinfer.so.10 (TensorRT) is not on the library path: NVIDIA ships it apart from the driver and CUDA',
      enable: 'install TensorRT 10 (NVIDIA tar or the libnvinfer10 apt package from the CUDA repository) and add its lib folder to LD_LIBRARY_PATH',
    };
  }
  return null;
}

/**
 * onnxruntime-node for a probe, by `require`: the binding loads as `import()`
 * loads it, but Node does not lex the package and onnxruntime-common's
 * CommonJS files for named exports, about 0.1 s of CPU in every process that
 * lists engines. `open()` still imports it, inside its timed import phase.
 */
function requireOrt(): typeof import('onnxruntime-node') {
  return createRequire(import.meta.url)('onnxruntime-node') as typeof import('onnxruntime-node');
}

/** onnx-webgpu's probe: the binary must bundle the EP (listSupportedBackends), and Dawn must find an adapter. */
async function webGpuProbe(version: string): Promise<Availability> {
  const ort = requireOrt();
  const webgpu = ort.listSupportedBackends?.().find((b: { name: string }) => b.name === 'webgpu');
  if (webgpu === undefined || !webgpu.bundled) {
    return { available: false, reason: `onnxruntime-node ${version} for ${process.platform}/${process.arch} does not bundle the WebGPU provider`, enable: 'use onnxruntime-node 1.30 or later on linux/x64, win32 or macOS' };
  }
  return webGpuAvailability({ 'onnxruntime-node': version });
}

/**
 * The adapter onnx-webgpu ran on. ORT's WebGPU EP does not expose its Dawn
 * adapter to JS, so this is the adapter Dawn (the `webgpu` package) picks by
 * default in a probe process with this environment: the same Vulkan loader
 * and ICD, and ORT's EP asks for its default adapter too. Where that probe
 * fails although the session opened, the session is refused rather than
 * recorded without an adapter.
 */
async function webGpuAdapterOf(session: { release(): Promise<void> }) {
  const probe = await dawnAdapter();
  if (probe.ok) return probe.adapter;
  await session.release();
  throw new Error(`the WebGPU session opened but its adapter could not be read: ${probe.reason}`);
}

class OrtNodeSession implements EngineSession {
  constructor(
    private readonly session: OrtRunner & { release(): Promise<void> },
    private readonly Tensor: OrtTensorCtor,
    private readonly description: SessionDescription,
    private readonly phases: OpenPhases,
    /** A second session on the same file and options with ORT's profiler on (`run --profile`, after the timed rounds). */
    private readonly profiling: (options: object) => Promise<ProfilingOrtSession>,
  ) {}

  profiler(): Promise<OpProfiler> {
    return ortNodeProfiler(this.profiling, {}, this.Tensor);
  }

  openPhases(): OpenPhases {
    return this.phases;
  }

  async run(inputs: Parameters<EngineSession['run']>[0]) {
    const outputs = await this.session.run(toOrtFeeds(this.Tensor, inputs));
    return fromOrtOutputs(outputs);
  }

  prepareCall(inputs: Parameters<EngineSession['run']>[0]): PreparedCall {
    return preparedOrtCall(this.session, this.Tensor, inputs);
  }

  describe(): SessionDescription {
    return this.description;
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}

/**
 * Why this engine gives skipped `inferbench train` cells. Checked
 * against the installed packages (test/engines/train-onnx-skipped.test.ts): the
 * onnxruntime-node 1.30.0 module exports InferenceSession, Tensor, env,
 * listSupportedBackends, registerBackend and the TRACE helpers and nothing
 * else; onnxruntime-common 1.30.0 declares no TrainingSession (its index
 * re-exports backend, env, inference-session, tensor, tensor-conversion,
 * tensor-factory, trace, onnx-model and onnx-value only); and the native
 * libonnxruntime it ships contains no TrainingSession symbol.
 */
const ORT_NODE_NO_TRAINING =
  'onnxruntime-node has no training API: onnxruntime-node 1.30 exports only InferenceSession, Tensor, env, ' +
  'listSupportedBackends, registerBackend and TRACE helpers, and onnxruntime-common declares no TrainingSession';

/**
 * onnxruntime-node with one execution provider. Providers are requested
 * without a CPU entry, so a CUDA or TensorRT provider that cannot load makes
 * session creation fail instead of quietly running on the CPU; nodes a GPU
 * provider does not implement still fall back to CPU inside ORT, which an
 * untimed profiling pass at open reads back into `describe().placement`.
 */
export function createOnnxNodeEngine(device: NodeDevice): Engine {
  const id = `onnx-${device}`;
  return {
    id,
    target: { family: 'onnx', device },
    ...declaredBy({ family: 'onnx', device }),
    trainingUnsupported: ORT_NODE_NO_TRAINING,
    description: `ONNX Runtime (onnxruntime-node), ${DEVICE_NAMES[device]} execution provider`,

    async probe(): Promise<Availability> {
      const version = installedVersion('onnxruntime-node');
      if (version === null) {
        return { available: false, reason: 'onnxruntime-node is not installed', enable: 'npm install onnxruntime-node' };
      }
      try {
        requireOrt();
      } catch (err) {
        return { available: false, reason: `onnxruntime-node failed to load: ${(err as Error).message}`, enable: 'reinstall onnxruntime-node for this platform' };
      }
      if (device === 'webgpu') return webGpuProbe(version);
      if (device !== 'cpu') {
        const problem = gpuProviderProblem(device);
        if (problem) return problem;
      }
      return { available: true, versions: { 'onnxruntime-node': version } };
    },

    async open(onnxPath: string, options: ResolvedSessionOptions): Promise<EngineSession> {
      const clock = new OpenPhaseClock();
      const ort = await clock.time('importMs', () => import('onnxruntime-node'));
      const threads = options.threads ?? availableParallelism();
      const requested = PROVIDER_NAMES[device];
      const executionProviders = device === 'cpu' || device === 'webgpu' ? [device] : [{ name: device, deviceId: 0 }];
      // --engine-options variants change these defaults (onnx-options.ts); the profiling session below uses the same, so its node count is the variant's graph.
      const sessionOptions = ortSessionOptions({
        executionProviders,
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
        // onnxruntime's own WARNING lines (node placement, shape merges) would land in the report: errors only unless --verbose (core/library-logs.ts).
        logSeverityLevel: ortLogSeverity(),
      }, options.engineOptions) as Parameters<typeof ort.InferenceSession.create>[1];
      // Untimed and released before the timed session exists, so GPU memory is never held twice.
      let placement: ProviderPlacement | undefined;
      let placementError: string | undefined;
      try {
        placement = await clock.time('placementProbeMs', () => profilePlacement(ort as unknown as OrtNodeLike, onnxPath, sessionOptions as object, requested));
      } catch (err) {
        placementError = (err as Error).message.split('\n')[0];
      }
      // A provider that cannot load fails here, whatever the profiling pass did.
      const session = await clock.time('createMs', () => ort.InferenceSession.create(onnxPath, sessionOptions));
      if (placement !== undefined && device !== 'cpu') {
        const problem = noGpuNodes(placement, requested);
        if (problem !== null) {
          await session.release();
          throw new Error(problem);
        }
      }
      const adapter = device === 'webgpu' ? await webGpuAdapterOf(session) : undefined;
      const backend = placement === undefined ? `${requested} (requested; placement not read)` : placementBackend(placement);
      const description: SessionDescription = {
        engine: id,
        backend: adapter === undefined ? backend : `${backend} on ${adapter.label}`,
        threads,
        precision: options.precision,
        versions: { 'onnxruntime-node': installedVersion('onnxruntime-node') ?? 'unknown' },
        notes: [...PROVIDER_NOTES[device], ...(placementError === undefined ? [] : [`placement not read from ORT's profiler: ${placementError}`])],
        ...(placement === undefined ? {} : { placement }),
        ...(adapter === undefined ? {} : { adapter }),
        ...ortOptionFields(options, placement),
      };
      const profiling = async (extra: object) => (await ort.InferenceSession.create(onnxPath, { ...sessionOptions, ...extra } as typeof sessionOptions)) as unknown as ProfilingOrtSession;
      return new OrtNodeSession(session as never, ort.Tensor as unknown as OrtTensorCtor, description, clock.phases(), profiling);
    },
  };
}
