import { stat } from 'node:fs/promises';
import type { Engine, OnnxDevice, TfjsBackend } from '../core/engine.js';
import { engineIdFor } from '../core/engine.js';
import { defaultRegistry } from '../../engines/registry.js';
import { type EngineRegistry } from '../core/engine-registry.js';
import { CellSkip } from '../core/errors.js';
import type { EngineSession, Precision } from '../core/engine-session.js';
import type { HostDType, TensorMap } from '../core/tensor.js';
import type { ModelInfo } from '../core/results.js';
import type { DataRow } from '../../datasets/dataset.js';
import type { ResolvedColumns } from '../../datasets/columns.js';

/** One graph input: name, dtype and axes, with `null` for dynamic axes named in `dynamicAxes`. */
export interface InputSpec {
  readonly name: string;
  readonly dtype: HostDType;
  /** Axis sizes; a string names a dynamic axis (e.g. `batch`, `sequence`). */
  readonly shape: readonly (number | string)[];
}

/** Options every export method takes. */
export interface ExportOptions {
  /** Intra-op threads; null or absent means the engine default. */
  readonly threads?: number | null;
  /** Load on this engine object instead of the registry's engine for the target (mock and plug-in engines). */
  readonly engine?: Engine;
  /** Registry to look engines up in; defaults to the shared one. */
  readonly registry?: EngineRegistry;
}

/**
 * A model under test. Subclass it to benchmark your own model: say what the
 * inputs are, how a batch of raw dataset rows becomes those inputs, and where
 * the ONNX graph is. The export methods then give a runnable session on each
 * engine family; override one to plug in a session of your own (for example
 * a hand-written tfjs model in `exportToTfjs`).
 */
export abstract class BenchmarkModel {
  /** Name shown in tables and file names. */
  abstract readonly name: string;
  /** Graph inputs, in the order the model expects them. */
  abstract readonly inputs: readonly InputSpec[];
  /** Precision of the graph file; used to label result rows. */
  readonly precision: Precision = 'fp32';

  /**
   * Turns raw dataset rows into model inputs (tokenize, pad, collate). The
   * benchmark times this apart from the engine, so it is never hidden in
   * the engine latency.
   */
  abstract prepareBatch(rows: readonly DataRow[], columns: ResolvedColumns): TensorMap | Promise<TensorMap>;

  /** Path of the ONNX graph the ONNX and translated-tfjs engines load. */
  abstract onnxPath(): string | Promise<string>;

  /** ONNX Runtime session on `cpu`, `cuda`, `tensorrt` (onnxruntime-node) or `wasm` (onnxruntime-web). */
  exportToOnnx(device: OnnxDevice, options: ExportOptions = {}): Promise<EngineSession> {
    return this.loadOn(options.engine ?? engineIdFor({ family: 'onnx', device }), options);
  }

  /** TensorFlow.js session; by default the ONNX graph translated to tfjs ops. */
  exportToTfjs(backend: TfjsBackend, options: ExportOptions = {}): Promise<EngineSession> {
    return this.loadOn(options.engine ?? engineIdFor({ family: 'tfjs', backend }), options);
  }

  /**
   * A session in the model's own framework (e.g. a hand-written tfjs
   * LayersModel). There is no default: a model without one is skipped.
   */
  exportToNative(_options: ExportOptions = {}): Promise<EngineSession> {
    return Promise.reject(new CellSkip(`${this.name} has no native form (override exportToNative to add one)`));
  }

  /** Facts the reports print beside the numbers (size on disk, caveats). */
  async info(): Promise<ModelInfo> {
    const path = await this.onnxPath();
    const size = (await stat(path)).size;
    return { name: this.name, source: path, sizeBytes: size, notes: [] };
  }

  /** The one path all export methods share: find the engine, then load the graph into it. */
  protected async loadOn(engine: Engine | string, options: ExportOptions): Promise<EngineSession> {
    const resolved = typeof engine === 'string' ? await (options.registry ?? defaultRegistry).require(engine) : engine;
    return resolved.load(await this.onnxPath(), { threads: options.threads ?? null, precision: this.precision });
  }
}
