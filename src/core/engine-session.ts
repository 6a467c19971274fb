import type { GpuAdapter } from './gpu-adapter.js';
import type { TensorMap } from './tensor.js';
import type { ProfileCapture } from './op-profile.js';

/** Numeric precision of the weights and activations actually used by a session. */
export type Precision = 'fp32' | 'fp16' | 'int8' | 'int4' | 'mixed' | 'unknown';

/**
 * What a session is really running on. It is read back from the engine after
 * opening, never copied from what was requested, so a silent fallback (CUDA
 * asked for, CPU used) shows up in every result row.
 */
export interface SessionDescription {
  /** Registry id of the engine, e.g. `onnx-cpu`. */
  readonly engine: string;
  /** Execution provider or backend in use, e.g. `cpu`, `cuda`, `wasm`, `tensorflow`. */
  readonly backend: string;
  /**
   * What ran the model on that backend, where engines differ in it (the
   * tfjs engines: `inferbench ONNX translator`, `tfjs-converter GraphModel`,
   * `TensorFlow session (SavedModel)`), read from the object that ran.
   */
  readonly executor?: string;
  /** Intra-op threads in use; null when the engine does not expose or control them. */
  readonly threads: number | null;
  readonly precision: Precision;
  /** Package name to version for every package on the inference path. */
  readonly versions: Readonly<Record<string, string>>;
  /** Free-form notes the reader must see (e.g. "single-threaded in Node"). */
  readonly notes?: readonly string[];
  /** Where ONNX Runtime actually ran the graph's nodes, from its own profiler (onnxruntime-node engines only). */
  readonly placement?: ProviderPlacement;
  /** What the browser page read back, for engines that run in headless Chromium (browser launcher). */
  readonly browser?: BrowserReadback;
  /** `--engine-options` as applied, canonical (`key=value;…` sorted); absent or empty for the engine's defaults. */
  readonly engineOptions?: string;
  /** What the engine gave back about its options (`graphNodes`, a flag's value, the threads used), key to value. */
  readonly optionReadback?: Readonly<Record<string, string>>;
  /** Options the engine silently ignored or changed (a thread count above what the build supports), one line each. */
  readonly ignoredOptions?: readonly string[];
  /** The WebGPU adapter a Node WebGPU engine ran on (onnx-webgpu, transformers-js-webgpu, tfjs-webgpu*), read back from Dawn. */
  readonly adapter?: GpuAdapter;
}

/** A memory figure of a browser page and what it covers (the JS heap is not the process's RSS). */
export interface PageHeapFigure {
  readonly bytes: number;
  /** `measureUserAgentSpecificMemory` (page + workers + wasm memory) or `performance.memory` (main-thread JS heap). */
  readonly source: string;
  readonly covers: string;
}

/**
 * Facts about the page a browser cell ran in, read in the page itself:
 * what a reader needs to tell a threaded wasm run from a single-threaded
 * one, and a real GPU from SwiftShader.
 */
export interface BrowserReadback {
  /** e.g. `Chromium 156.0.8078.79`. */
  readonly browser: string;
  readonly crossOriginIsolated: boolean;
  /** navigator.hardwareConcurrency, as the browser reports it (WebKitGTK said 4 on a 2-core machine); `machineCores` is the machine's own count. */
  readonly hardwareConcurrency: number;
  /** The machine's cores (os.availableParallelism()), beside `hardwareConcurrency`. Absent in runs recorded before it was. */
  readonly machineCores?: number;
  /** The browser as `--browsers` names it (`chromium`, `firefox`, `firefox-webgpu`, `webkit`, `webkit-sab`); absent before it was recorded (Chromium then). */
  readonly browserName?: string;
  /** The browser's version alone (`153.8.0`). */
  readonly browserVersion?: string;
  /** `typeof SharedArrayBuffer === 'function'` in the page: wasm threads need it, and WebKitGTK lacks it unless opted in. */
  readonly sharedArrayBuffer?: boolean;
  /** Smallest non-zero step of the page's performance.now(), in ms; null when it never moved. */
  readonly timerResolutionMs?: number | null;
  /** The WebGPU adapter's features, sorted. */
  readonly webgpuFeatures?: readonly string[];
  /** Timed calls, and how many of them were timed in a group of calls and divided because one call was shorter than 20 timer steps. */
  readonly timing?: { readonly calls: number; readonly groupedCalls: number; readonly largestGroup: number };
  /** WebAssembly SIMD validates in the page. */
  readonly simd: boolean;
  /** UNMASKED_RENDERER of a WebGL2 context (SwiftShader on a machine without a GPU); null with the reason when none. */
  readonly webglRenderer: string | null;
  readonly webglUnavailable?: string;
  /** WebGPU adapter (vendor / architecture / description); null with the reason when none. */
  readonly webgpuAdapter: string | null;
  readonly webgpuUnavailable?: string;
  /** Cold start, each part apart; the first inference is the cell's `coldStart.firstBatchMs`. */
  readonly coldStart: {
    /** Page navigation until its bundle had installed the benchmark API. */
    readonly pageLoadMs: number;
    /** Runtime start-up (wasm compile, backend init) on a one-node graph; null where it cannot be split from the build. */
    readonly runtimeInitMs: number | null;
    /** Model bytes fetched and the session (or translated graph) built. */
    readonly sessionBuildMs: number;
  };
  readonly memory: {
    /** The page's heap right after the model opened. */
    readonly afterOpen: PageHeapFigure | null;
    /** Highest performance.memory.usedJSHeapSize read after each engine call (main-thread JS heap only); null where unavailable. */
    readonly peakJsHeapBytes: number | null;
  };
}

/**
 * Node placement read from ONNX Runtime's profiler on an untimed pass: a GPU
 * provider hands the nodes it lacks to the CPU provider without a word, and
 * this is the only record of it.
 */
export interface ProviderPlacement {
  /** Execution provider name (`CPUExecutionProvider`, …) to the nodes it ran and their summed kernel time in µs. */
  readonly byProvider: Readonly<Record<string, { readonly nodes: number; readonly timeUs: number }>>;
  /** Op types that ran on the CPU provider although a GPU provider was requested; empty on CPU engines. */
  readonly cpuFallbackOps: readonly string[];
}

/**
 * An open in its parts, as the engine timed them: the package import (cold
 * only in a fresh process), an untimed placement-profiling session where
 * the engine builds one (onnxruntime-node, transformers.js), and the create
 * of the session that is measured. `open` in the reports is `createMs`, so
 * isolated, in-process and browser opens compare alike.
 */
export interface OpenPhases {
  /** Import of the engine's packages during this open; 0 when already imported in this process; null when not timed apart. */
  readonly importMs: number | null;
  /** The placement-profiling session and its dummy run; null when the engine builds none. */
  readonly placementProbeMs: number | null;
  /** The measured session's create (browser engines: the page's session build). */
  readonly createMs: number;
}

/**
 * A model opened on one engine. `run` resolves only once the outputs are in
 * host memory, so timing it measures real work even on asynchronous engines.
 */
export interface EngineSession {
  run(inputs: TensorMap): Promise<TensorMap>;
  /**
   * Makes one batch ready to run without the harness's own conversions in
   * the timed region: inputs are wrapped in the engine's tensor type here,
   * before the clock starts, and outputs are read back as host tensors by
   * `PreparedCall.outputs()` after it stops. Optional: sessions without it
   * are timed around `run`, conversions included.
   */
  prepareCall?(inputs: TensorMap): PreparedCall;
  /**
   * For sessions whose `run` does more than the model forward (a whole
   * transformers.js pipeline: tokenize, forward, post-process): milliseconds
   * the raw ONNX forward took inside the last `run` call, so the overhead
   * around it can be reported. Absent on plain engines.
   */
  innerForwardMs?(): number | null;
  describe(): SessionDescription;
  /**
   * How long each part of this session's open took, as the engine timed it
   * (import, placement probe, create). Optional: without it the reports
   * show the whole open and say so.
   */
  openPhases?(): OpenPhases;
  dispose(): Promise<void>;
  /** Engine-reported memory, for engines that keep their own account (tfjs `tf.memory()`). */
  memory?(): { numTensors: number; numBytes: number };
  /**
   * The resident memory of the process the model really runs in, for
   * sessions whose model lives outside this one (a browser page's renderer):
   * this process's RSS would then be the driver's, not the engine's, and a
   * memory table would set it beside in-process engines as if comparable.
   */
  readonly residentMemory?: ResidentMemoryProbe;
  /**
   * The engine's own op-level instrument for `run --profile` (ORT's
   * profiler, per-node wall time, `tf.profile`), started after the timed
   * rounds; never used inside a timed loop. Absent: the profile row says
   * the engine's time cannot be attributed.
   */
  profiler?(): Promise<OpProfiler>;
}

/**
 * A session with an instrument on. Batches run through `session` as the
 * timed loop runs them; `finish(n)` reads the events of the last `n` calls
 * (an instrument on a fresh session is warmed by a first pass it drops).
 */
export interface OpProfiler {
  /** `innerForwardMs`: a pipeline's own forward, its engine time as in the timed loop. */
  readonly session: Pick<EngineSession, 'run' | 'prepareCall' | 'innerForwardMs'>;
  /** A fresh session (ORT's profiler is a session option): run the rows once before the recorded pass. */
  readonly needsWarmPass: boolean;
  finish(lastCalls: number): Promise<ProfileCapture>;
  dispose(): Promise<void>;
}

/** Peak RSS of another process over the timed loop, bracketed outside the clock. */
export interface ResidentMemoryProbe {
  /** Resets the kernel's high-water mark of the candidate processes and notes their baseline; before the timed loop. */
  begin(): Promise<void>;
  /** The window's figures and whose they are, or why none could be read (the row then says so). */
  end(): Promise<ResidentMemoryWindow | { readonly unavailable: string }>;
}

export interface ResidentMemoryWindow {
  readonly baselineRssBytes: number;
  readonly peakRssBytes: number;
  /** Whose RSS, short (`Chromium renderer`), for a table cell. */
  readonly label: string;
  /** Which process (pid), how it was picked and what the figure covers. */
  readonly process: string;
}

/**
 * One batch converted to an engine's own input type, ready to time. The work
 * between `run()` being called and its promise resolving is what the engine
 * itself must do (for ONNX Runtime: `InferenceSession.run`, whose output
 * tensors are already in host memory when it resolves).
 */
export interface PreparedCall {
  /** Runs the model on the prepared inputs; resolves once the outputs are in host memory. */
  run(): Promise<void>;
  /** The outputs of the last `run()` as host tensors (a view where the dtype allows, no copy). */
  outputs(): TensorMap;
  /**
   * The engine call's own duration, when the engine times it where it runs
   * (a browser page's performance.now()), so the transport to and from that
   * place is not counted. Absent: the call is timed here.
   */
  elapsedMs?(): number;
}

/** Clock readings around one engine call, and its outputs. */
export interface TimedCall {
  readonly startedAt: number;
  readonly endedAt: number;
  readonly outputs: TensorMap;
  /** Time to read the outputs back into host tensors after the clock stopped (0 when `run` returned them inside the timed region). */
  readonly readBackMs: number;
}

/** A batch whose feeds are ready: `run()` times only the engine call. */
export interface ReadyCall {
  run(): Promise<TimedCall>;
}

/**
 * Prepares one batch so that only the engine's own work falls between the
 * two clock readings when the session can prepare its feeds
 * (`prepareCall`), else only `run`. Conversions happen here or after
 * `endedAt`, so callers that time this call count the input wrapping as
 * preparation.
 */
export function readyCall(session: Pick<EngineSession, 'run' | 'prepareCall'>, inputs: TensorMap): ReadyCall {
  const call = session.prepareCall?.(inputs);
  return {
    async run() {
      if (call === undefined) {
        const startedAt = performance.now();
        const outputs = await session.run(inputs);
        return { startedAt, endedAt: performance.now(), outputs, readBackMs: 0 };
      }
      const startedAt = performance.now();
      await call.run();
      const endedAt = call.elapsedMs ? startedAt + call.elapsedMs() : performance.now();
      const readStart = performance.now();
      const outputs = call.outputs();
      return { startedAt, endedAt, outputs, readBackMs: performance.now() - readStart };
    },
  };
}

/** Prepares and runs one batch (see `readyCall`). */
export function runTimed(session: Pick<EngineSession, 'run' | 'prepareCall'>, inputs: TensorMap): Promise<TimedCall> {
  return readyCall(session, inputs).run();
}
