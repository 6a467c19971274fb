import { availableParallelism } from 'node:os';
import type { Availability, Engine, EngineGenerator, ResolvedSessionOptions } from '../../src/core/engine.js';
import { declaredBy } from '../engine-target.js';
import { CellSkip } from '../../src/core/errors.js';
import { installedVersion } from '../../src/core/package-info.js';
import { textsOf } from '../../src/core/raw-texts.js';
import type { EngineSession, OpenPhases, OpProfiler, SessionDescription } from '../../src/core/engine-session.js';
import { ortTraceEvents, ortTraceFolder } from '../onnx/ort-profile.js';
import { OpenPhaseClock } from '../../src/core/open-phases.js';
import type { HostTensor, TensorMap } from '../../src/core/tensor.js';
import { createOnnxNodeEngine } from '../onnx/onnx-node-engine.js';
import { dawnAdapter } from '../webgpu/dawn-adapter.js';
import type { GpuAdapter } from '../../src/core/gpu-adapter.js';
import { ortOptionFields, ortSessionOptions } from '../onnx/onnx-options.js';
import { describeOpened, pipelineTarget, transformersSessionOptions, type TransformersJsSessionLike } from './session-readback.js';
export { describeOpened, pipelineTarget, transformersSessionOptions } from './session-readback.js';
import { fromOrtOutputs, type OrtTensorLike } from '../onnx/ort-tensors.js';
import { pipelineTask } from './pipeline-task.js';

import type { Device } from './session-readback.js';

const PACKAGE = '@huggingface/transformers';
const DEVICE_NAMES: Readonly<Record<Device, string>> = { cpu: 'CPU', cuda: 'CUDA', webgpu: 'WebGPU' };
const WEBGPU_NOTE = "adapter: ORT's WebGPU EP does not expose its Dawn adapter, so it is the adapter Dawn picks by default here (same Vulkan loader and ICD)";

/** The adapter transformers-js-webgpu runs on (see WEBGPU_NOTE), or the error that refuses the session. */
async function readAdapter(): Promise<GpuAdapter> {
  const probe = await dawnAdapter();
  if (!probe.ok) throw new Error(`the WebGPU session opened but its adapter could not be read: ${probe.reason}`);
  return probe.adapter;
}
export { PIPELINE_NOTE } from './pipeline-task.js';

/** The parts of an onnxruntime InferenceSession the timing wrapper touches. */
interface OrtSessionLike extends TransformersJsSessionLike {
  run(feeds: Record<string, unknown>, ...rest: unknown[]): Promise<Record<string, OrtTensorLike>>;
}

/** The parts of a transformers.js pipeline used here. */
interface PipelineLike {
  (texts: string[], options?: Record<string, unknown>): Promise<unknown>;
  model: { sessions: Record<string, OrtSessionLike | undefined> };
  dispose(): Promise<void>;
}

/**
 * Wraps the pipeline's own ONNX session so each forward is timed and its
 * logits kept: the forward time beside the pipeline time shows the overhead,
 * and the logits let parity checks compare this engine with the others.
 */
function instrument(session: OrtSessionLike): { lastMs: () => number | null; lastOutputs: () => Record<string, OrtTensorLike> | null; reset: () => void } {
  const original = session.run.bind(session);
  let ms: number | null = null;
  let outputs: Record<string, OrtTensorLike> | null = null;
  session.run = async (feeds, ...rest) => {
    const t0 = performance.now();
    const out = await original(feeds, ...rest);
    ms = (ms ?? 0) + (performance.now() - t0);
    outputs = out;
    return out;
  };
  return { lastMs: () => ms, lastOutputs: () => outputs, reset: () => ((ms = null), (outputs = null)) };
}

/** The pipeline's result Tensor [batch, width] as a host tensor. */
function pooledTensor(result: unknown): HostTensor {
  const t = result as { dims?: number[]; data?: ArrayLike<number> };
  if (!Array.isArray(t.dims) || t.dims.length !== 2 || !t.data) throw new Error('the feature-extraction pipeline returned no [batch, width] tensor');
  return { dtype: 'float32', dims: [...t.dims], data: t.data instanceof Float32Array ? t.data : Float32Array.from(t.data) };
}

class TransformersJsSession implements EngineSession {
  private readonly timing: ReturnType<typeof instrument>;

  constructor(
    private readonly pipe: PipelineLike,
    session: OrtSessionLike,
    private readonly description: SessionDescription,
    private readonly phases: OpenPhases,
    /** Feature extraction pooled by the pipeline itself: its call options; null returns the raw forward's outputs. */
    private readonly pooled: Record<string, unknown> | null,
    /** `run --profile`: a second pipeline on the same folder with extra session options (ORT's profiler on); null on that pipeline itself. */
    private readonly profiling: ((extra: object) => Promise<{ pipe: PipelineLike; session: OrtSessionLike }>) | null = null,
  ) {
    this.timing = instrument(session);
  }

  openPhases(): OpenPhases {
    return this.phases;
  }

  async run(inputs: TensorMap): Promise<TensorMap> {
    const texts = textsOf(inputs);
    if (!texts) {
      throw new CellSkip('transformers-js runs the pipeline on raw texts, and these inputs carry none (fixed --sequence-lengths or a custom prepareBatch)');
    }
    this.timing.reset();
    const result = await this.pipe([...texts], this.pooled ?? undefined);
    // The pipeline's own pooled (and normalised) vectors: what a transformers.js user stores.
    if (this.pooled !== null) return { sentence_embedding: pooledTensor(result) };
    const outputs = this.timing.lastOutputs();
    return outputs ? fromOrtOutputs(outputs) : {};
  }

  innerForwardMs(): number | null {
    return this.timing.lastMs();
  }

  /**
   * `run --profile`: ORT's profiler on a second pipeline with the same
   * options, created after the timed rounds (profiling is a session option);
   * its engine time is the pipeline's own forward, as in the timed loop.
   */
  async profiler(): Promise<OpProfiler> {
    if (this.profiling === null) throw new Error('this pipeline is itself a profiling one');
    const folder = await ortTraceFolder();
    let opened: { pipe: PipelineLike; session: OrtSessionLike };
    try {
      opened = await this.profiling({ enableProfiling: true, profileFilePrefix: folder.prefix });
    } catch (err) {
      await folder.remove();
      throw err;
    }
    const profiled = new TransformersJsSession(opened.pipe, opened.session, this.description, this.phases, this.pooled);
    const ortSession = opened.session as unknown as { endProfiling(): unknown };
    return {
      session: { run: (inputs) => profiled.run(inputs), innerForwardMs: () => profiled.innerForwardMs() },
      needsWarmPass: true,
      async finish(lastCalls) {
        ortSession.endProfiling();
        const trace = await folder.read();
        return Array.isArray(trace) ? ortTraceEvents(trace, lastCalls) : { source: 'ort profiler', events: [], unattributed: 'the ORT trace is not a JSON array of trace events' };
      },
      async dispose() {
        await opened.pipe.dispose().catch(() => {});
        await folder.remove();
      },
    };
  }

  describe(): SessionDescription {
    return this.description;
  }

  async dispose(): Promise<void> {
    await this.pipe.dispose();
  }
}

/**
 * The `@huggingface/transformers` text-classification pipeline, run end to
 * end on raw texts (tokenize, forward, softmax + top-1). It opens the same
 * folder and graph file as the other engines, on onnxruntime-node's CPU or
 * CUDA provider; every call also records the raw forward time of the
 * pipeline's own ONNX session.
 */
export function createTransformersJsEngine(device: Device): Engine {
  const id = device === 'cpu' ? 'transformers-js' : `transformers-js-${device}`;
  return {
    id,
    target: { family: 'onnx', device },
    ...declaredBy({ family: 'onnx', device }),
    // transformers.js runs on onnxruntime-node, whose 1.30 API is inference only (see ORT_NODE_NO_TRAINING in engines/onnx/onnx-node-engine.ts).
    trainingUnsupported: 'transformers.js has no training API: it runs inference on onnxruntime-node, and onnxruntime-node has no training API (1.30 exports only InferenceSession, Tensor, env and helpers)',
    description: `transformers.js text-classification pipeline (${PACKAGE}) on onnxruntime-node ${DEVICE_NAMES[device]}, engine time: its own ONNX forward; end to end: the whole pipeline call, tokenization and post-processing included`,

    async probe(): Promise<Availability> {
      const version = installedVersion(PACKAGE);
      if (version === null) return { available: false, reason: `${PACKAGE} is not installed`, enable: `npm install ${PACKAGE}` };
      let adapter: GpuAdapter | undefined;
      if (device !== 'cpu') {
        // transformers.js in Node hands `device` to onnxruntime-node as its execution provider (src/backends/onnx.js), so that provider's probe decides.
        const ort = await createOnnxNodeEngine(device).probe();
        if (!ort.available) return { available: false, reason: `transformers.js on ${DEVICE_NAMES[device]} needs onnxruntime-node's ${DEVICE_NAMES[device]} provider: ${ort.reason}`, enable: ort.enable };
        adapter = ort.adapter;
      }
      try {
        await import('@huggingface/transformers');
      } catch (err) {
        return { available: false, reason: `${PACKAGE} failed to load: ${(err as Error).message.split('\n')[0]}`, enable: `reinstall ${PACKAGE}` };
      }
      return { available: true, versions: { [PACKAGE]: version, 'onnxruntime-node': installedVersion('onnxruntime-node') ?? 'unknown' }, ...(adapter === undefined ? {} : { adapter }) };
    },

    /** Decoders open as `AutoModelForCausalLM` and generate with its own `generate()`; the pipeline only classifies. */
    async openGenerator(onnxPath: string, options: ResolvedSessionOptions): Promise<EngineGenerator> {
      const { openTransformersJsGenerator } = await import('./transformers-js-generator.js');
      return openTransformersJsGenerator(id, device, onnxPath, options);
    },

    async open(onnxPath: string, options: ResolvedSessionOptions): Promise<EngineSession> {
      const { folder, dtype } = pipelineTarget(onnxPath);
      const clock = new OpenPhaseClock();
      const { env, pipeline, LogLevel } = await clock.time('importMs', () => import('@huggingface/transformers'));
      env.allowRemoteModels = false;
      env.allowLocalModels = true;
      env.logLevel = LogLevel.ERROR;
      const threads = options.threads ?? availableParallelism();
      // Passed whole (the providers transformers.js would derive from `device`, spelled out) so the placement pass gets the same options.
      // --engine-options: ORT's session options passed through session_options (onnx-options.ts), the placement pass included.
      const sessionOptions = ortSessionOptions(transformersSessionOptions(device, threads), options.engineOptions);
      const task = pipelineTask(options);
      // One way to open the pipeline: the timed open, and run --profile's second pipeline with ORT's profiler added (extra).
      const openPipeline = async (extra: object) => {
        const opened = (await pipeline(task.task as 'text-classification', folder, { local_files_only: true, device, dtype: dtype as never, session_options: { ...sessionOptions, ...extra } } as never)) as unknown as PipelineLike;
        const model = opened.model.sessions['model'];
        if (!model) {
          await opened.dispose();
          throw new Error(`transformers.js opened ${folder} without a "model" session (sessions: ${Object.keys(opened.model.sessions).join(', ')})`);
        }
        return { pipe: opened, session: model };
      };
      const { pipe, session } = await clock.time('createMs', () => openPipeline({}));
      let description: SessionDescription;
      try {
        const adapter = device === 'webgpu' ? await readAdapter() : undefined;
        // describeOpened builds the untimed placement-profiling session: its own phase, not the open.
        description = await clock.time('placementProbeMs', () =>
          describeOpened(id, session, onnxPath, folder, sessionOptions, threads, [task.note, ...(device === 'webgpu' ? [WEBGPU_NOTE] : [])], adapter),
        );
      } catch (err) {
        await pipe.dispose();
        throw err;
      }
      return new TransformersJsSession(pipe, session, { ...description, ...ortOptionFields(options, description.placement) }, clock.phases(), task.call, openPipeline);
    },
  };
}
