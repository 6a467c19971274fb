/**
 * What crosses between Node and the benchmark page. Only plain JSON crosses
 * (Playwright's evaluate serialises arguments), so tensors travel as base64
 * of their bytes: exact, dtype-preserving (int64 included) and cheap for the
 * few kilobytes a batch holds. Shared by the Node side and the page bundles.
 */

import type { BrowserReadback } from '../../../src/core/engine-session.js';

export type WireDType = 'float32' | 'int64' | 'int32' | 'bool';

export interface WireTensor {
  readonly dtype: WireDType;
  readonly dims: readonly number[];
  /** Base64 of the tensor's little-endian bytes. */
  readonly b64: string;
}

export type WireMap = Readonly<Record<string, WireTensor>>;

/** A batch as the page keeps it until it is run: tensors, and the raw texts for pipeline runtimes. */
export interface WireBatch {
  readonly tensors: WireMap;
  readonly texts: readonly string[] | null;
}

/** Which runtime the page loads and how. */
export interface PageOpenRequest {
  readonly runtime: 'ort' | 'tfjs' | 'transformers';
  readonly backend: 'wasm' | 'webgl' | 'webgpu';
  /** Threads asked for; null leaves the runtime's own default. */
  readonly threads: number | null;
  /** URL of the ONNX graph on the loopback server, or of a GraphModel's model.json (`executor` graph-model). */
  readonly modelUrl: string;
  /** tfjs pages: run a GraphModel with tfjs-converter's executor instead of translating the ONNX graph. */
  readonly executor?: 'graph-model';
  /** URL of a one-node ONNX graph, loaded first so the runtime's start-up is timed apart from the model's session build. */
  readonly warmupModelUrl: string;
  /** Where the runtime's own files are served (module URL, wasm folder). */
  readonly assets: Readonly<Record<string, string>>;
  /**
   * transformers.js: the folder URL root, model id under it and dtype; the
   * pipeline task, its call options (feature extraction pooled by the
   * pipeline; null: read the forward's own outputs) and the note saying so.
   */
  readonly pipeline?: {
    readonly root: string;
    readonly modelId: string;
    readonly dtype: string;
    readonly task: 'text-classification' | 'feature-extraction';
    readonly call: { readonly pooling: string; readonly normalize: boolean } | null;
    readonly note: string;
  };
  /** Test hook: the page throws this from open as an allocation failure would. */
  readonly simulateOpenFailure?: string;
  /** Test hook: the page never answers run() (a hung page). */
  readonly simulateHang?: boolean;
}

/**
 * What the page can do, read before any runtime loads: the capability part
 * of the row's `BrowserReadback` (one definition, in core) plus the user agent.
 */
export type PageCapabilities = Pick<BrowserReadback, 'crossOriginIsolated' | 'hardwareConcurrency' | 'simd' | 'webglRenderer' | 'webglUnavailable' | 'webgpuAdapter' | 'webgpuUnavailable'> & {
  readonly userAgent: string;
  /** Smallest non-zero step of performance.now() seen in a 50 ms loop; null when it never moved. Absent in answers remembered before it was read. */
  readonly timerResolutionMs?: number | null;
  /** `typeof SharedArrayBuffer === 'function'` (WebKitGTK leaves it undefined even when cross-origin isolated). */
  readonly sharedArrayBuffer?: boolean;
  /** GPUAdapterInfo's fields, for core/gpu-adapter.ts's label (Firefox gives them empty, with isFallbackAdapter). */
  readonly webgpuInfo?: { readonly vendor: string; readonly architecture: string; readonly device: string; readonly description: string; readonly isFallbackAdapter: boolean };
  readonly webgpuFeatures?: readonly string[];
};

/** A heap figure and what it covers. */
export interface HeapFigure {
  readonly bytes: number;
  readonly source: 'measureUserAgentSpecificMemory' | 'performance.memory';
  readonly covers: string;
}

/** What the page read back after opening the model. */
export interface PageOpenResult {
  /** Backend actually in use, read back (tf.getBackend(), ORT's execution provider). */
  readonly backend: string;
  /** Threads actually used: crossOriginIsolated and the runtime's own count; null on GPU backends. */
  readonly threads: number | null;
  readonly precision: 'fp32' | 'fp16' | 'unknown';
  /** What runs the model (tfjs pages: inferbench's translator or tfjs-converter's GraphModel executor). */
  readonly executor?: string;
  readonly versions: Readonly<Record<string, string>>;
  readonly notes: readonly string[];
  /** Runtime start-up: wasm compile, backend init (WebGL context, WebGPU device), timed on the one-node graph. */
  readonly runtimeInitMs: number | null;
  /** Model bytes fetched and session built (shaders compile lazily on the first inference for tfjs). */
  readonly sessionBuildMs: number;
  readonly heap: HeapFigure | null;
}

/** One timed engine call. */
export interface PageRunResult {
  /** performance.now() in the page around the engine call, outputs readable on the CPU; per call when `group` > 1. */
  readonly ms: number;
  /** Calls timed together and divided, because one was shorter than GROUP_STEPS steps of the page's clock (page-common.ts); 1: timed alone. */
  readonly group: number;
  /** Raw ONNX forward inside a pipeline call (transformers.js); null otherwise. */
  readonly forwardMs: number | null;
  readonly outputs: WireMap;
  /** performance.memory.usedJSHeapSize after the call; null where the page has none. */
  readonly heapBytes: number | null;
  /** The runtime's own account (tf.memory()); null where it keeps none. */
  readonly engineMemory: { readonly numTensors: number; readonly numBytes: number } | null;
}

/** The object every page bundle installs as `globalThis.__inferbench`. */
export interface PageApi {
  capabilities(): Promise<PageCapabilities>;
  open(request: PageOpenRequest): Promise<PageOpenResult>;
  /** Keeps batches in the page under their ids, all in one call (one message, not one per batch). */
  upload(batches: readonly (readonly [number, WireBatch])[]): void;
  run(id: number): Promise<PageRunResult>;
  /** Frees uploaded batches and the session. */
  dispose(): Promise<void>;
}
