import { presetTfjsFlags } from './tfjs-options.js';
import type { EngineOptionValues } from '../../src/core/engine-options.js';
import type { Availability, Engine, EngineTrainer, ResolvedSessionOptions, TfjsBackend, TrainerOptions } from '../../src/core/engine.js';
import { onWebGpu } from '../engine-target.js';
import type { EngineSession, OpenPhases, OpProfiler, SessionDescription } from '../../src/core/engine-session.js';
import { translatorProfiler } from './tfjs-profile.js';
import { OpenPhaseClock } from '../../src/core/open-phases.js';
import type { TensorMap } from '../../src/core/tensor.js';
import type { TfjsGraphExecutor } from './graph-executor.js';
import type { OnnxModel } from '../../src/core/onnx/onnx-decode.js';
import { WEBGPU_KERNELS_NOTE } from './webgpu-kernels.js';
import { TfjsBackendHost, activate, tfjsMemory, webGpuCpuForward, type Tf } from './tfjs-backend.js';

/** The executor every row of these engines names. */
export const TRANSLATOR_EXECUTOR = 'inferbench ONNX translator';
const NOTE_TRANSLATED = 'ONNX graph translated to tfjs ops by inferbench';

class TfjsSession implements EngineSession {
  constructor(
    private readonly tf: Tf,
    private readonly executor: TfjsGraphExecutor,
    private readonly description: SessionDescription,
    private readonly backendName: string,
    private readonly phases: OpenPhases,
  ) {}

  openPhases(): OpenPhases {
    return this.phases;
  }

  /** tfjs-core has one global backend; another session may have switched it since open, so switch back (a string compare when nothing changed). */
  async run(inputs: TensorMap): Promise<TensorMap> {
    if (this.tf.engine().backendName !== this.backendName) await activate(this.tf, this.backendName);
    webGpuCpuForward(this.tf, this.backendName, false);
    return this.executor.run(inputs);
  }

  /** `run --profile`: each ONNX node timed on this opened executor (tfjs-profile.ts). */
  async profiler(): Promise<OpProfiler> {
    return translatorProfiler(this.executor, (inputs) => this.run(inputs), this.backendName);
  }

  describe(): SessionDescription {
    return this.description;
  }

  /** tfjs's own account of live tensors and bytes, reported beside RSS. */
  memory(): { numTensors: number; numBytes: number } {
    return tfjsMemory(this.tf);
  }

  async dispose(): Promise<void> {
    this.executor.dispose();
  }
}

class TfjsEngine implements Engine {
  readonly id: string;
  readonly target: { readonly family: 'tfjs'; readonly backend: TfjsBackend; readonly executor: 'translator' };
  readonly format = 'onnx';
  readonly onnxTranslator = true;
  readonly webgpu: boolean;
  readonly description: string;
  private readonly host: TfjsBackendHost;

  constructor(backend: TfjsBackend) {
    this.host = new TfjsBackendHost(backend);
    this.id = this.host.spec.id;
    this.target = { family: 'tfjs', backend, executor: 'translator' };
    this.webgpu = onWebGpu(this.target);
    this.description = `${this.host.spec.description} (ONNX graph translated to tfjs ops)`;
  }

  /** A variant's tfjs flags, set as its backend package is imported, before the probe starts the backend (tfjs-options.ts). */
  configure(values: EngineOptionValues): void {
    presetTfjsFlags(values);
  }

  probe(): Promise<Availability> {
    return this.host.probe();
  }

  async open(onnxPath: string, options: ResolvedSessionOptions): Promise<EngineSession> {
    const clock = new OpenPhaseClock();
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
   * and tfjs's autodiff computes their gradients (tfjs-trainer.ts).
   */
  async openTrainer(onnxPath: string, options: ResolvedSessionOptions & TrainerOptions): Promise<EngineTrainer> {
    const { tf, description, backend, model } = await this.prepare(onnxPath, options);
    const { TrainableGraph, TfjsTrainer } = await import('./tfjs-trainer.js');
    await activate(tf, backend);
    const graph = new TrainableGraph(model);
    const notes = [...(withPrecision(description, [], options).notes ?? []), `trained with tfjs autodiff (tf.variableGrads), ${graph.variables.size} float initializers as tf.Variables, graph unfused`];
    return new TfjsTrainer(graph, options, { ...description, notes }, () => activate(tf, backend));
  }

  /** The backend made ready (host.prepare, its import timed apart), the parsed graph (the session create), and the translator's own notes on the row. */
  private async prepare(
    onnxPath: string,
    options: ResolvedSessionOptions,
    clock = new OpenPhaseClock(),
  ): Promise<{ tf: Tf; description: SessionDescription; backend: string; model: OnnxModel }> {
    const prepared = await this.host.prepare(this.id, options, clock);
    // Parsing the graph and (in open) building the executor are the session create.
    const model = await clock.time('createMs', async () => (await import('../../src/core/onnx/onnx-decode.js')).readOnnxModel(onnxPath));
    await activate(prepared.tf, prepared.backend);
    const notes = [NOTE_TRANSLATED, 'int64 tensors computed as int32 (tfjs has no int64)', ...(prepared.description.notes ?? [])];
    if (this.host.spec.tfName === 'webgpu') notes.push(WEBGPU_KERNELS_NOTE);
    if (prepared.native) notes.push('small LayerNorm and GELU tensors computed in JS between libtensorflow ops (one copy each way instead of ~12 eager op dispatches; see custom-kernels.ts)');
    return { tf: prepared.tf, description: { ...prepared.description, executor: TRANSLATOR_EXECUTOR, notes }, backend: prepared.backend, model };
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
 * The TensorFlow.js engines. They run the same ONNX file as the ONNX Runtime
 * engines by translating its graph to tfjs ops at load, so every engine
 * benchmarks identical weights and structure.
 */
export function createTfjsEngine(backend: TfjsBackend): Engine {
  return new TfjsEngine(backend);
}
