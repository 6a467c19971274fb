import { stat } from 'node:fs/promises';
import type { Engine, ModelFormat, OnnxDevice, ResolvedSessionOptions, TfjsBackend, TfjsExecutor } from '../core/engine.js';
import { engineIdFor, formatOf } from '../core/engine.js';
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

/** What `exportToTfjs` takes besides the common options: which tfjs executor (default: inferbench's translator). */
export interface TfjsExportOptions extends ExportOptions {
  readonly executor?: TfjsExecutor;
}

/** Format names as sentences say them. */
export const FORMAT_LABEL: Readonly<Record<ModelFormat, string>> = { onnx: 'ONNX graph', 'graph-model': 'tfjs GraphModel', 'saved-model': 'TensorFlow SavedModel' };

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

  /**
   * TensorFlow.js session: by default the ONNX graph translated to tfjs
   * ops; with `executor` 'graph-model' a GraphModel on tfjs-converter's
   * executor, with 'saved-model' a SavedModel in a TensorFlow session
   * (tfjs-node), each exported from the ONNX graph unless the model brings
   * its own (`nativeModelPath`).
   */
  exportToTfjs(backend: TfjsBackend, options: TfjsExportOptions = {}): Promise<EngineSession> {
    return this.loadOn(options.engine ?? engineIdFor({ family: 'tfjs', backend, ...(options.executor ? { executor: options.executor } : {}) }), options);
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
   * A tfjs GraphModel's model.json or a SavedModel's saved_model.pb that the
   * model brings itself; null (the default) has them exported from the ONNX
   * graph when an engine needs one.
   */
  nativeModelPath(_format: Exclude<ModelFormat, 'onnx'>): string | null | Promise<string | null> {
    return null;
  }

  /**
   * The file an engine of `format` loads: the ONNX graph, or the model in a
   * tfjs format, the model's own (`nativeModelPath`) or exported from the
   * ONNX graph into the cache (tf-export/native-export.ts). A graph the
   * exporter refuses (an op with no TensorFlow mapping, a quantized graph)
   * is a CellSkip with the reason. Resolved once per format: a load group
   * resolves it before the load's clock starts, so the export cache's check
   * (a sha256 of the ONNX bytes) is not paid again inside the timed load.
   */
  modelFile(format: ModelFormat): Promise<string> {
    if (format === 'onnx') return Promise.resolve(this.onnxPath());
    const known = this.modelFiles.get(format);
    if (known !== undefined) return known;
    const found = this.findModelFile(format);
    this.modelFiles.set(format, found);
    // A failure (a refused export) is not kept: the next caller gets the same error afresh.
    found.catch(() => this.modelFiles.delete(format));
    return found;
  }

  private readonly modelFiles = new Map<Exclude<ModelFormat, 'onnx'>, Promise<string>>();

  private async findModelFile(format: Exclude<ModelFormat, 'onnx'>): Promise<string> {
    const own = await this.nativeModelPath(format);
    if (own !== null) return own;
    const [{ ensureNativeExport }, { ExportRefused }] = await Promise.all([import('./tf-export/native-export.js'), import('./tf-export/lower-context.js')]);
    try {
      return (await ensureNativeExport(await this.onnxPath(), format)).file;
    } catch (err) {
      if (err instanceof ExportRefused) throw new CellSkip(`${this.name} cannot be exported as a ${FORMAT_LABEL[format]}: ${err.message}`);
      throw err;
    }
  }

  /** The one path all export methods share: find the engine, then load the file of its format into it. */
  protected async loadOn(engine: Engine | string, options: ExportOptions): Promise<EngineSession> {
    const resolved = typeof engine === 'string' ? await (options.registry ?? defaultRegistry).require(engine) : engine;
    return resolved.load(await this.modelFile(formatOf(resolved.target)), { threads: options.threads ?? null, precision: this.precision, ...this.taskOptions() });
  }

  /** What the model's task adds to every load's options (a feature-extraction model: its pooling); none by default. */
  protected taskOptions(): Pick<ResolvedSessionOptions, 'featureExtraction'> {
    return {};
  }
}
