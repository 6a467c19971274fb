/**
 * The tfjs engines that run tfjs's own executors rather than inferbench's
 * translator: `tfjs-<backend>-graph-model` (tfjs-converter's GraphModel
 * executor on that backend) and `tfjs-node[-gpu]-saved-model` (a
 * TensorFlow session through tf.node.loadSavedModel). They open the file of
 * their format (model.json, saved_model.pb); BenchmarkModel hands them one
 * exported from the ONNX graph, or the folder's own.
 */
import { presetTfjsFlags } from './tfjs-options.js';
import type { EngineOptionValues } from '../../src/core/engine-options.js';
import type { Availability, Engine, ResolvedSessionOptions, TfjsBackend } from '../../src/core/engine.js';
import { onWebGpu } from '../engine-target.js';
import { CellSkip } from '../../src/core/errors.js';
import type { EngineSession, OpenPhases } from '../../src/core/engine-session.js';
import { OpenPhaseClock } from '../../src/core/open-phases.js';
import { isInstalled } from './native-library.js';
import { TfjsBackendHost, packageVersion } from './tfjs-backend.js';

export type NativeExecutor = 'graph-model' | 'saved-model';

const CONVERTER_PKG = '@tensorflow/tfjs-converter';

const RUNS: Readonly<Record<NativeExecutor, string>> = {
  'graph-model': "running a tfjs GraphModel (model.json) with tfjs-converter's executor",
  'saved-model': 'running a TensorFlow SavedModel as one TensorFlow session call (tf.node.loadSavedModel)',
};

class NativeTfjsEngine implements Engine {
  readonly id: string;
  readonly target: { readonly family: 'tfjs'; readonly backend: TfjsBackend; readonly executor: NativeExecutor };
  /** The executor's own format: a GraphModel's model.json or a SavedModel's saved_model.pb. */
  readonly format: NativeExecutor;
  readonly webgpu: boolean;
  readonly description: string;
  readonly trainingUnsupported = 'GraphModels and SavedModels are run for inference here; train on the translator engines (tfjs-node, tfjs-wasm, tfjs-cpu)';
  private readonly host: TfjsBackendHost;

  constructor(backend: TfjsBackend, readonly executor: NativeExecutor) {
    this.host = new TfjsBackendHost(backend);
    if (executor === 'saved-model' && !this.host.native) throw new Error(`a SavedModel runs on tfjs-node or tfjs-node-gpu only, not ${this.host.spec.id}`);
    this.id = `${this.host.spec.id}-${executor}`;
    this.target = { family: 'tfjs', backend, executor };
    this.format = executor;
    this.webgpu = onWebGpu(this.target);
    this.description = `${this.host.spec.description}, ${RUNS[executor]}`;
  }

  /** A variant's tfjs flags, set as its backend package is imported, before the probe starts the backend (tfjs-options.ts). */
  configure(values: EngineOptionValues): void {
    presetTfjsFlags(values);
  }

  async probe(): Promise<Availability> {
    const base = await this.host.probe();
    if (!base.available || this.executor !== 'graph-model') return base;
    if (!isInstalled(CONVERTER_PKG)) return { available: false, reason: `${CONVERTER_PKG} is not installed`, enable: 'npm install @tensorflow/tfjs (it brings tfjs-converter)' };
    // `...base` keeps the backend's adapter (tfjs-webgpu), so `inferbench engines` names a software one here too.
    return { ...base, versions: { ...base.versions, [CONVERTER_PKG]: packageVersion(CONVERTER_PKG) } };
  }

  async open(path: string, options: ResolvedSessionOptions): Promise<EngineSession> {
    if (options.precision !== 'fp32' && options.precision !== 'unknown') throw new CellSkip(`${this.id} runs fp32 exports only; the ${options.precision} graph is not exported`);
    // The package import is timed apart from the model's open, so `open` is the session create alone, as on every engine.
    const clock = new OpenPhaseClock();
    const prepared = await this.host.prepare(this.id, options, clock);
    const session = await clock.time('createMs', async () => {
      const { openGraphModelSession, openSavedModelSession } = await import('./native-sessions.js');
      return this.executor === 'graph-model' ? openGraphModelSession(prepared, path) : openSavedModelSession(prepared, this.host.spec.pkg, path);
    });
    const phases = clock.phases();
    return Object.assign(session, { openPhases: (): OpenPhases => phases });
  }
}

export function createNativeTfjsEngine(backend: TfjsBackend, executor: NativeExecutor): Engine {
  return new NativeTfjsEngine(backend, executor);
}
