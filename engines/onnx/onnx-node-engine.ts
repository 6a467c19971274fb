import { ORT_NODE_NO_TRAINING } from './ort-training.js';
import { ortLogSeverity } from '../../src/core/library-logs.js';
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import type { Availability, Engine, ResolvedSessionOptions } from '../../src/core/engine.js';
import type { EngineSession, LoadPhases, PreparedCall, ProviderPlacement, SessionDescription } from '../../src/core/engine-session.js';
import { LoadPhaseClock } from '../../src/core/load-phases.js';
import { nvidiaGpus } from '../../src/core/gpu.js';
import { installedVersion, packageDir } from '../../src/core/package-info.js';
import { fromOrtOutputs, preparedOrtCall, toOrtFeeds, type OrtRunner, type OrtTensorCtor } from './ort-tensors.js';
import { CPU_PROVIDER, noGpuNodes, placementBackend, profilePlacement, type OrtNodeLike } from './ort-placement.js';

type NodeDevice = 'cpu' | 'cuda' | 'tensorrt';

const PROVIDER_NAMES: Readonly<Record<NodeDevice, string>> = {
  cpu: CPU_PROVIDER,
  cuda: 'CUDAExecutionProvider',
  tensorrt: 'TensorrtExecutionProvider',
};

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
};

const INSTALL_GPU_LIBS =
  'run `ONNXRUNTIME_NODE_INSTALL=cuda12 node node_modules/onnxruntime-node/script/install.js` on a machine with internet ' +
  '(it fetches the CUDA/TensorRT providers from NuGet), with CUDA 12 and cuDNN 9 installed';

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
  if (nvidiaGpus().length === 0) {
    return { available: false, reason: 'no NVIDIA GPU found (nvidia-smi lists none)', enable: 'run on a machine with an NVIDIA GPU and driver' };
  }
  const bin = ortBinaryDir();
  const lib = `libonnxruntime_providers_${device}.so`;
  if (bin === null || !existsSync(join(bin, lib))) {
    return { available: false, reason: `${lib} is not installed next to onnxruntime-node`, enable: INSTALL_GPU_LIBS };
  }
  if (device === 'tensorrt' && !sharedLibraryOnPath('libnvinfer.so')) {
    return { available: false, reason: 'TensorRT (libnvinfer.so) is not on the library path', enable: 'install TensorRT 10 and add it to LD_LIBRARY_PATH' };
  }
  return null;
}

class OrtNodeSession implements EngineSession {
  constructor(
    private readonly session: OrtRunner & { release(): Promise<void> },
    private readonly Tensor: OrtTensorCtor,
    private readonly description: SessionDescription,
    private readonly phases: LoadPhases,
  ) {}

  loadPhases(): LoadPhases {
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
 * onnxruntime-node with one execution provider. Providers are requested
 * without a CPU entry, so a CUDA or TensorRT provider that cannot load makes
 * session creation fail instead of quietly running on the CPU; nodes a GPU
 * provider does not implement still fall back to CPU inside ORT, which an
 * untimed profiling pass at load reads back into `describe().placement`.
 */
export function createOnnxNodeEngine(device: NodeDevice): Engine {
  const id = `onnx-${device}`;
  return {
    id,
    target: { family: 'onnx', device },
    trainingUnsupported: ORT_NODE_NO_TRAINING,
    description: `ONNX Runtime (onnxruntime-node), ${device === 'cpu' ? 'CPU' : device === 'cuda' ? 'CUDA' : 'TensorRT'} execution provider`,

    async probe(): Promise<Availability> {
      const version = installedVersion('onnxruntime-node');
      if (version === null) {
        return { available: false, reason: 'onnxruntime-node is not installed', enable: 'npm install onnxruntime-node' };
      }
      try {
        await import('onnxruntime-node');
      } catch (err) {
        return { available: false, reason: `onnxruntime-node failed to load: ${(err as Error).message}`, enable: 'reinstall onnxruntime-node for this platform' };
      }
      if (device !== 'cpu') {
        const problem = gpuProviderProblem(device);
        if (problem) return problem;
      }
      return { available: true, versions: { 'onnxruntime-node': version } };
    },

    async load(onnxPath: string, options: ResolvedSessionOptions): Promise<EngineSession> {
      const clock = new LoadPhaseClock();
      const ort = await clock.time('importMs', () => import('onnxruntime-node'));
      const threads = options.threads ?? availableParallelism();
      const requested = PROVIDER_NAMES[device];
      const executionProviders = device === 'cpu' ? ['cpu'] : [{ name: device, deviceId: 0 }];
      const sessionOptions = {
        executionProviders,
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
        // onnxruntime's own WARNING lines (node placement, shape merges) would land in the report: errors only unless --verbose (core/library-logs.ts).
        logSeverityLevel: ortLogSeverity(),
      } as Parameters<typeof ort.InferenceSession.create>[1];
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
      const description: SessionDescription = {
        engine: id,
        backend: placement === undefined ? `${requested} (requested; placement not read)` : placementBackend(placement),
        threads,
        precision: options.precision,
        versions: { 'onnxruntime-node': installedVersion('onnxruntime-node') ?? 'unknown' },
        notes: [...PROVIDER_NOTES[device], ...(placementError === undefined ? [] : [`placement not read from ORT's profiler: ${placementError}`])],
        ...(placement === undefined ? {} : { placement }),
      };
      return new OrtNodeSession(session as never, ort.Tensor as unknown as OrtTensorCtor, description, clock.phases());
    },
  };
}
