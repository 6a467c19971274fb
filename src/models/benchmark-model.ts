import { stat } from 'node:fs/promises';
import type { Engine, ModelFormat, OnnxDevice, ResolvedSessionOptions, TfjsBackend, TfjsExecutor } from '../core/engine.js';
import { aFormat, formatLabel, FormatRefused, modelFormat } from '../core/model-formats.js';
import { engineIdFor } from '../../engines/engine-target.js';
// The tfjs formats' entries in the format table (their exporter loads on first use).
import './tf-export/tf-formats.js';
import { type EngineRegistry } from '../core/engine-registry.js';
import { standaloneRegistry } from './standalone-registry.js';
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

/** What `openOn` takes besides the engine and the model. */
export interface OpenOptions {
  /** Intra-op threads; null or absent means the engine default. */
  readonly threads?: number | null;
}

/** Options every export method takes. */
export interface ExportOptions extends OpenOptions {
  /** Open on this engine object instead of the registry's engine for the target (mock and plug-in engines). */
  readonly engine?: Engine;
  /** Registry to look engines up in; absent, a registry of the built-in engines (standalone-registry.ts: a model used on its own). */
  readonly registry?: EngineRegistry;
}

/** What `exportToTfjs` takes besides the common options: which tfjs executor (default: inferbench's translator). */
export interface TfjsExportOptions extends ExportOptions {
  readonly executor?: TfjsExecutor;
}

/**
 * Opens `model` on `engine`: the model's file of the format the engine
 * declares (`Engine.format`, written on first use and cached:
 * `modelFile`), with the model's precision and task options, the session
 * then adapted by the model (a feature-extraction model pools it). The one
 * way a model reaches an engine, for every scenario and the public API.
 */
export async function openOn(engine: Engine, model: BenchmarkModel, options: OpenOptions = {}): Promise<EngineSession> {
  const file = await model.modelFile(engine.format);
  return model.adaptSession(await engine.open(file, { threads: options.threads ?? null, precision: model.precision, ...model.sessionOptions() }));
}

/** The engine an export method names: the one passed, else the id looked up in the registry passed, else among the built-ins. */
async function engineOf(id: string, options: ExportOptions): Promise<Engine> {
  return options.engine ?? (options.registry ?? standaloneRegistry()).require(id);
}

/**
 * A model under test. Subclass it to benchmark your own model: say what the
 * inputs are, how a batch of raw dataset rows becomes those inputs, and where
 * the ONNX graph is. `openOn(engine, model)` then gives a runnable session on
 * any engine, from the file of the format the engine opens
 * (`modelFile(format)`); bring a file of your own with `nativeModelPath`,
 * and wrap the engine's session with `adaptSession`.
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

  /** Path of the ONNX graph the ONNX and translated-tfjs engines open. */
  abstract onnxPath(): string | Promise<string>;

  /**
   * ONNX Runtime session on `cpu`, `cuda`, `tensorrt` (onnxruntime-node) or `wasm` (onnxruntime-web).
   * @deprecated `openOn(engine, model)`: kept, as a thin wrapper, because the public API exported it; the harness never calls it, so overriding it changes no run.
   */
  async exportToOnnx(device: OnnxDevice, options: ExportOptions = {}): Promise<EngineSession> {
    return openOn(await engineOf(engineIdFor({ family: 'onnx', device }), options), this, options);
  }

  /**
   * TensorFlow.js session: by default the ONNX graph translated to tfjs
   * ops; with `executor` 'graph-model' a GraphModel on tfjs-converter's
   * executor, with 'saved-model' a SavedModel in a TensorFlow session
   * (tfjs-node), each exported from the ONNX graph unless the model brings
   * its own (`nativeModelPath`).
   * @deprecated `openOn(engine, model)`: kept, as a thin wrapper, because the public API exported it; the harness never calls it, so overriding it changes no run.
   */
  async exportToTfjs(backend: TfjsBackend, options: TfjsExportOptions = {}): Promise<EngineSession> {
    return openOn(await engineOf(engineIdFor({ family: 'tfjs', backend, ...(options.executor ? { executor: options.executor } : {}) }), options), this, options);
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

  /**
   * A tfjs GraphModel's model.json or a SavedModel's saved_model.pb (or the
   * file of a plug-in family's format) that the model brings itself; null
   * (the default) has the format written from the ONNX graph when an engine
   * needs one, where the format table has a writer for it.
   */
  nativeModelPath(_format: ModelFormat): string | null | Promise<string | null> {
    return null;
  }

  /**
   * The file an engine of `format` opens, as the format table says
   * (core/model-formats.ts): the ONNX graph, or the model in another
   * format, the model's own (`nativeModelPath`) or written from the ONNX
   * graph by the format's writer (the tfjs formats: tf-export/tf-formats.ts,
   * into the cache). A graph the writer refuses (an op with no TensorFlow
   * mapping, a quantized graph), or a format the model has no file of and
   * nothing writes, is a CellSkip with the reason. Resolved once per format:
   * an open group resolves it before the open's clock starts, so the export
   * cache's check (a sha256 of the ONNX bytes) is not paid again inside the
   * timed open.
   */
  modelFile(format: ModelFormat): Promise<string> {
    if (modelFormat(format)?.fromOnnx === 'itself') return Promise.resolve(this.onnxPath());
    const known = this.modelFiles.get(format);
    if (known !== undefined) return known;
    const found = this.findModelFile(format);
    this.modelFiles.set(format, found);
    // A failure (a refused export) is not kept: the next caller gets the same error afresh.
    found.catch(() => this.modelFiles.delete(format));
    return found;
  }

  private readonly modelFiles = new Map<ModelFormat, Promise<string>>();

  private async findModelFile(format: ModelFormat): Promise<string> {
    const own = await this.nativeModelPath(format);
    if (own !== null) return own;
    const write = modelFormat(format)?.fromOnnx;
    if (typeof write !== 'function') throw new CellSkip(`${this.name} has no ${formatLabel(format)} (a model brings one through nativeModelPath)`);
    try {
      return await write(await this.onnxPath());
    } catch (err) {
      if (err instanceof FormatRefused) throw new CellSkip(`${this.name} cannot be exported as ${aFormat(format)}: ${err.message}`);
      throw err;
    }
  }

  /** What the model's task adds to every open's options (a feature-extraction model: its pooling); none by default. */
  sessionOptions(): Pick<ResolvedSessionOptions, 'featureExtraction'> {
    return {};
  }

  /** The session `openOn` hands back for the engine's `session` (a feature-extraction model wraps it to pool); the engine's own by default. */
  adaptSession(session: EngineSession): EngineSession {
    return session;
  }
}
