import type { EngineSession, Precision, SessionDescription } from './engine-session.js';
import type { GpuAdapter } from './gpu-adapter.js';
import type { TensorMap } from './tensor.js';
import type { EngineOptionValues } from './engine-options.js';

/**
 * An engine id. Engines declare their own ids when they register
 * (`registerEngine` in engine-registry.ts), so the core lists none.
 */
export type EngineId = string;

/** Devices of `BenchmarkModel.exportToOnnx`. */
export type OnnxDevice = 'cpu' | 'cuda' | 'tensorrt' | 'wasm' | 'webgpu';
/** Backends of `BenchmarkModel.exportToTfjs`. */
export type TfjsBackend = 'node' | 'node-gpu' | 'wasm' | 'cpu' | 'webgpu';

/**
 * What runs a model on a tfjs backend: inferbench's ONNX translator (the
 * ONNX file, op by op as tfjs ops), tfjs-converter's GraphModel executor
 * (`loadGraphModel` on a model.json), or a TensorFlow session
 * (`tf.node.loadSavedModel` on a SavedModel, tfjs-node only). It decides
 * which file the engine opens.
 */
export type TfjsExecutor = 'translator' | 'graph-model' | 'saved-model';

/**
 * What an engine family runs on, in its own terms (ORT's device, tfjs's
 * backend and executor; a tfjs engine without `executor` is the
 * translator). Only the engine's own folder reads it: what the rest of the
 * program asks of an engine it asks through `format`, `webgpu` and
 * `onnxTranslator`.
 */
export type EngineTarget =
  | { readonly family: 'onnx'; readonly device: OnnxDevice }
  | { readonly family: 'tfjs'; readonly backend: TfjsBackend; readonly executor?: TfjsExecutor };

/** The formats inferbench writes a model in itself: the ONNX graph, and the two tfjs formats its exporter writes from it. */
export type BuiltinModelFormat = 'onnx' | 'graph-model' | 'saved-model';

/**
 * The model file format an engine opens (`Engine.format`): the ONNX graph,
 * a tfjs GraphModel's model.json, a SavedModel's saved_model.pb, or any
 * other name a plug-in family declares (a model brings that file through
 * `nativeModelPath`). The model answers `modelFile(format)`; nothing but the
 * engine says which format it opens.
 */
export type ModelFormat = BuiltinModelFormat | (string & {});

/**
 * Result of probing an engine. An unavailable engine always says why and how
 * to enable it, because "not available" alone sends users searching.
 */
export type Availability =
  | {
      readonly available: true;
      readonly versions: Readonly<Record<string, string>>;
      /** The WebGPU adapter a WebGPU engine will run on, so `inferbench engines` names a software adapter before anything runs. */
      readonly adapter?: GpuAdapter;
    }
  | { readonly available: false; readonly reason: string; readonly enable: string };

/** Options every engine accepts once resolved; `threads: null` means "engine default". */
export interface ResolvedSessionOptions {
  readonly threads: number | null;
  /** Precision of the graph file, known from the model (engines cannot tell fp32 from a quantized file cheaply). */
  readonly precision: Precision;
  /**
   * Set when the model is a feature-extraction model: the pooling modes and
   * normalisation its folder declares. Engines that run a whole pipeline
   * (transformers.js) build a feature-extraction pipeline with them; plain
   * engines ignore it and the model pools their outputs.
   */
  readonly featureExtraction?: { readonly pooling: readonly string[]; readonly normalize: boolean };
  /** `--engine-options` values of this variant, checked against the engine's table (engine-options.ts); absent: the engine's defaults. */
  readonly engineOptions?: EngineOptionValues;
}

/**
 * A decoder an engine generates with through its own loop (transformers.js
 * `generate()`), where that loop is the engine's natural generation path.
 */
export interface EngineGenerator {
  /** The session behind it: `describe()` for result rows, `dispose()` to free it. */
  readonly session: EngineSession;
  /** transformers.js-style `generate()` (snake_case arguments, `streamer` with put/end). */
  generate(args: { readonly input_ids: unknown; readonly [key: string]: unknown }): Promise<unknown>;
}

/** Optimizers `inferbench train` offers; both exist in every engine that trains. */
export type TrainOptimizer = 'sgd' | 'adam';

/** How a trainer updates its weights. */
export interface TrainerOptions {
  readonly optimizer: TrainOptimizer;
  readonly learningRate: number;
}

/**
 * One training step as the engine timed it. The whole step is timed by the
 * caller; the parts are null where the engine cannot separate them.
 */
export interface TrainStepResult {
  /** Mean cross-entropy over the batch, before this step's update. */
  readonly loss: number;
  readonly forwardMs: number | null;
  readonly backwardMs: number | null;
  readonly updateMs: number | null;
  /** The engine's tensor bytes at the step's fullest point (forward intermediates alive), where it keeps an account. */
  readonly peakEngineBytes?: number;
}

/**
 * A graph opened for training: forward, mean cross-entropy on integer labels,
 * backward and an optimizer update per `step`.
 */
export interface EngineTrainer {
  /** Engine, backend, threads, precision and versions read back from the engine, as for inference rows. */
  describe(): SessionDescription;
  /** One step on `inputs` (logits output [batch, labels]) and `labels` (one class index per row). */
  step(inputs: TensorMap, labels: Int32Array): Promise<TrainStepResult>;
  /** Back to the weights the graph was opened with and a fresh optimizer state (each round starts here). */
  reset(): Promise<void>;
  /** The engine's own account of live tensors, where it keeps one. */
  memory?(): { numTensors: number; numBytes: number };
  dispose(): Promise<void>;
}

/**
 * The contract each engine family implements. Kept small on purpose (see
 * onnxruntime-common's Backend): probe once, then open graphs into sessions.
 */
export interface Engine {
  /** Registry id; built-in engines use an EngineId, test and plug-in engines any other name. */
  readonly id: string;
  /** What a built-in family runs on, in its own terms; only its folder reads it, and a plug-in family may leave it out. */
  readonly target?: EngineTarget;
  /** The model file format `open` takes, declared by the engine: the one thing a model is asked for (`modelFile(format)`, `openOn`). */
  readonly format: ModelFormat;
  /** True for an engine that runs on WebGPU (Dawn in Node, or a browser's), for `inferbench engines --explain`'s GPU note. */
  readonly webgpu?: boolean;
  /** True for an engine that runs the ONNX graph op by op through inferbench's tfjs translator, which `inspect` judges by its op coverage. */
  readonly onnxTranslator?: boolean;
  /** One line for `inferbench engines`. */
  readonly description: string;
  /**
   * Where the engine runs: `browser` engines are opened inside a headless
   * browser page by the browser launcher, so the run layer hands their open
   * groups to it; absent means this Node process (or its isolated child).
   */
  readonly runsIn?: 'node' | 'browser';
  /** Imports the backing package and checks hardware. Called once by the registry. */
  probe(): Promise<Availability>;
  /**
   * Called once before `probe` on the engine object of an options variant
   * (`onnx-cpu [k=v]`), for options the runtime reads when it starts (tfjs's
   * WASM flags, read as its wasm backend initialises), so the probe starts
   * it with them.
   */
  configure?(values: EngineOptionValues): void;
  /**
   * Opens a model file into a session: the file of the engine's `format`
   * (the ONNX graph, a model.json, a saved_model.pb). Throws `CellSkip` when this graph cannot
   * run here (unsupported op, threads not controllable) and any other error
   * when opening fails.
   */
  open(onnxPath: string, options: ResolvedSessionOptions): Promise<EngineSession>;
  /** Engines with a generation loop of their own open decoders here; the others run inferbench's greedy loop over `open`. */
  openGenerator?(onnxPath: string, options: ResolvedSessionOptions): Promise<EngineGenerator>;
  /**
   * Engines that can train open a graph for `inferbench train` here; an
   * engine without it gets a skipped training cell, with `trainingUnsupported`
   * as the reason when it gives one.
   */
  openTrainer?(onnxPath: string, options: ResolvedSessionOptions & TrainerOptions): Promise<EngineTrainer>;
  /** Why this engine cannot train (e.g. its runtime has no training API), for the skipped cell. */
  readonly trainingUnsupported?: string;
}
