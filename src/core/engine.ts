import type { EngineSession, Precision } from './engine-session.js';

/**
 * An engine id. Engines declare their own ids when they register
 * (`registerEngine` in engine-registry.ts), so the core lists none.
 */
export type EngineId = string;

/** Devices of `BenchmarkModel.exportToOnnx`. */
export type OnnxDevice = 'cpu' | 'cuda' | 'tensorrt' | 'wasm';
/** Backends of `BenchmarkModel.exportToTfjs`. */
export type TfjsBackend = 'node' | 'node-gpu' | 'wasm' | 'cpu';

/** Which export method of a model an engine serves. */
export type EngineTarget =
  | { readonly family: 'onnx'; readonly device: OnnxDevice }
  | { readonly family: 'tfjs'; readonly backend: TfjsBackend };

/**
 * Result of probing an engine. An unavailable engine always says why and how
 * to enable it, because "not available" alone sends users searching.
 */
export type Availability =
  | { readonly available: true; readonly versions: Readonly<Record<string, string>> }
  | { readonly available: false; readonly reason: string; readonly enable: string };

/** Options every engine accepts once resolved; `threads: null` means "engine default". */
export interface ResolvedSessionOptions {
  readonly threads: number | null;
  /** Precision of the graph file, known from the model (engines cannot tell fp32 from a quantized file cheaply). */
  readonly precision: Precision;
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

/**
 * The contract each engine family implements. Kept small on purpose (see
 * onnxruntime-common's Backend): probe once, then load graphs into sessions.
 */
export interface Engine {
  /** Registry id; built-in engines use an EngineId, test and plug-in engines any other name. */
  readonly id: string;
  readonly target: EngineTarget;
  /** One line for `inferbench engines`. */
  readonly description: string;
  /**
   * Where the engine runs: `browser` engines are loaded inside a headless
   * browser page by the browser launcher, so the run layer hands their load
   * groups to it; absent means this Node process (or its isolated child).
   */
  readonly runsIn?: 'node' | 'browser';
  /** Imports the backing package and checks hardware. Called once by the registry. */
  probe(): Promise<Availability>;
  /**
   * Loads an ONNX file into a session. Throws `CellSkip` when this graph
   * cannot run here (unsupported op, threads not controllable) and any other
   * error when loading fails.
   */
  load(onnxPath: string, options: ResolvedSessionOptions): Promise<EngineSession>;
  /** Engines with a generation loop of their own load decoders here; the others run inferbench's greedy loop over `load`. */
  loadGenerator?(onnxPath: string, options: ResolvedSessionOptions): Promise<EngineGenerator>;
}

/** Engine id served by an export call, the inverse of `Engine.target`. */
export function engineIdFor(target: EngineTarget): EngineId {
  return target.family === 'onnx' ? `onnx-${target.device}` : `tfjs-${target.backend}`;
}
