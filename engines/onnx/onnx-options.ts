/**
 * The options of the onnxruntime engines (`--engine-options`): one frozen
 * table per runtime, registered beside the engines in onnx-register.ts,
 * and the pure mapping of a variant's values onto the session options
 * each engine passes to `InferenceSession.create`. Defaults are what
 * inferbench runs without options (interOpNumThreads 1, sequential, all).
 *
 * Left out on purpose: `freeDimensionOverrides` and `enableGraphCapture` on
 * onnxruntime-node (its 1.30 binding reads neither: js/node/src/
 * session_options_helper.cc) and `preferredOutputLocation` (outputs left on
 * the GPU would take the read-back out of the timed call, unlike every
 * other engine).
 */
import { canonicalOptions, optionTable, typedValue, type EngineOptionSpec, type EngineOptionValues } from '../../src/core/engine-options.js';
import type { ResolvedSessionOptions } from '../../src/core/engine.js';
import type { ProviderPlacement, SessionDescription } from '../../src/core/engine-session.js';

const NOT_READ = 'not read back: ORT has no getter for session options; the optimized graph\'s node count shows the graph it built';

const GRAPH_OPTIMIZATION: EngineOptionSpec = {
  key: 'graphOptimizationLevel',
  type: { kind: 'enum', values: ['disabled', 'basic', 'extended', 'layout', 'all'] },
  default: 'all',
  doc: 'graph rewrites before the run: none, constant folding and redundant nodes, fusions, layout changes, everything',
  applied: 'SessionOptions.graphOptimizationLevel',
  readBack: "graphNodes: the optimized graph's nodes that ran, from ORT's profiler on the untimed placement session",
};

const EXECUTION_MODE: EngineOptionSpec = {
  key: 'executionMode',
  type: { kind: 'enum', values: ['sequential', 'parallel'] },
  default: 'sequential',
  doc: 'run independent branches of the graph one after another, or at once on the inter-op pool',
  applied: 'SessionOptions.executionMode',
  readBack: NOT_READ,
};

const INTER_OP: EngineOptionSpec = {
  key: 'interOpNumThreads',
  type: { kind: 'integer', min: 1, max: 256 },
  default: '1',
  doc: 'threads of the inter-op pool that runs branches in parallel mode',
  applied: 'SessionOptions.interOpNumThreads',
  readBack: 'not read back; flagged as ignored when executionMode is sequential (ORT then uses no inter-op pool)',
};

const MEM_ARENA: EngineOptionSpec = {
  key: 'enableCpuMemArena',
  type: { kind: 'boolean' },
  default: 'true',
  doc: 'keep freed CPU buffers in an arena for reuse instead of returning them to the system',
  applied: 'SessionOptions.enableCpuMemArena',
  readBack: `${NOT_READ}; its effect shows in peak RSS`,
};

const MEM_PATTERN: EngineOptionSpec = {
  key: 'enableMemPattern',
  type: { kind: 'boolean' },
  default: 'true',
  doc: 'plan one allocation for all intermediates from the first run of an input shape',
  applied: 'SessionOptions.enableMemPattern',
  readBack: `${NOT_READ}; its effect shows in peak RSS`,
};

const SPINNING: EngineOptionSpec = {
  key: 'session.intra_op.allow_spinning',
  type: { kind: 'enum', values: ['0', '1'] },
  default: '1',
  doc: 'intra-op threads spin waiting for work (1) or sleep (0); spinning burns CPU a busy or small machine needs',
  applied: "SessionOptions.extra (session config entry 'session.intra_op.allow_spinning')",
  readBack: NOT_READ,
};

const PREFERRED_LAYOUT: EngineOptionSpec = {
  key: 'preferredLayout',
  type: { kind: 'enum', values: ['NCHW', 'NHWC'] },
  default: 'NCHW',
  doc: "the WebGPU provider's tensor layout for convolution-like ops",
  applied: "executionProviders: [{ name: 'webgpu', preferredLayout }]",
  readBack: 'not read back (provider options have no getter); placement shows the nodes WebGPU took',
};

const WASM_THREADS: EngineOptionSpec = {
  key: 'numThreads',
  type: { kind: 'integer', min: 1, max: 64 },
  default: '1',
  doc: 'threads of the wasm runtime (worker_threads in Node); overrides --threads for this variant',
  applied: 'env.wasm.numThreads, before the runtime starts',
  readBack: 'threads: env.wasm.numThreads after the session is created (onnxruntime-web lowers it where the build or host cannot thread); flagged when it differs',
};

const WASM_PROXY: EngineOptionSpec = {
  key: 'proxy',
  type: { kind: 'boolean' },
  default: 'false',
  doc: 'run the wasm runtime in a proxy worker so the calling thread stays free',
  applied: 'env.wasm.proxy, before the runtime starts',
  readBack: 'proxy: env.wasm.proxy after create; onnxruntime-web proxies only in a browser main thread, so true in Node is flagged as ignored',
};

const FREE_DIMS: EngineOptionSpec = {
  key: 'freeDimensionOverrides',
  type: { kind: 'text', pattern: /^[A-Za-z_][\w.]*:\d+(,[A-Za-z_][\w.]*:\d+)*$/, form: 'name:N,name:N (symbolic dimension names of the graph)' },
  default: '',
  doc: "fix the graph's symbolic dimensions so ORT can plan for static shapes; inputs of other sizes then fail",
  applied: 'SessionOptions.freeDimensionOverrides',
  readBack: 'not read back; a batch or sequence length that does not match fails its cell with ORT\'s error',
};

/** onnx-cpu, onnx-cuda, onnx-tensorrt: onnxruntime-node's session options. */
export const ORT_NODE_OPTIONS = optionTable([GRAPH_OPTIMIZATION, EXECUTION_MODE, INTER_OP, MEM_ARENA, MEM_PATTERN, SPINNING]);
/** onnx-webgpu: onnxruntime-node's options and the WebGPU provider's layout. */
export const ORT_WEBGPU_OPTIONS = optionTable([GRAPH_OPTIMIZATION, EXECUTION_MODE, INTER_OP, MEM_ARENA, MEM_PATTERN, SPINNING, PREFERRED_LAYOUT]);
/** onnx-wasm: onnxruntime-web's env.wasm settings and the session options its wasm build reads. */
export const ORT_WASM_OPTIONS = optionTable([GRAPH_OPTIMIZATION, EXECUTION_MODE, MEM_ARENA, MEM_PATTERN, FREE_DIMS, WASM_THREADS, WASM_PROXY]);

/** The session options keys set directly from a value of the same name. */
const DIRECT = ['graphOptimizationLevel', 'executionMode', 'interOpNumThreads', 'enableCpuMemArena', 'enableMemPattern'] as const;

/**
 * `base` with a variant's values applied (a new object): direct keys,
 * `extra` session config entries, free dimension overrides, and the
 * WebGPU provider's layout in its provider entry.
 */
export function ortSessionOptions(base: Readonly<Record<string, unknown>>, values: EngineOptionValues | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  if (values === undefined) return out;
  for (const key of DIRECT) {
    const v = values[key];
    if (v !== undefined) out[key] = typedValue(key === 'interOpNumThreads' ? INTER_OP : key.startsWith('enable') ? MEM_ARENA : GRAPH_OPTIMIZATION, v);
  }
  const spinning = values['session.intra_op.allow_spinning'];
  if (spinning !== undefined) out['extra'] = { session: { intra_op: { allow_spinning: spinning } } };
  const dims = values['freeDimensionOverrides'];
  if (dims !== undefined && dims !== '') {
    out['freeDimensionOverrides'] = Object.fromEntries(dims.split(',').map((p) => [p.slice(0, p.lastIndexOf(':')), Number(p.slice(p.lastIndexOf(':') + 1))]));
  }
  const layout = values['preferredLayout'];
  if (layout !== undefined && Array.isArray(out['executionProviders'])) {
    out['executionProviders'] = (out['executionProviders'] as unknown[]).map((p) => (p === 'webgpu' ? { name: 'webgpu', preferredLayout: layout } : p));
  }
  return out;
}

/** Options ORT takes without a word but does not use, one line each (inter-op threads in sequential mode). */
export function ignoredOrtOptions(values: EngineOptionValues | undefined): string[] {
  if (values === undefined) return [];
  const inter = values['interOpNumThreads'];
  const mode = values['executionMode'] ?? EXECUTION_MODE.default;
  return inter !== undefined && inter !== '1' && mode === 'sequential' ? [`interOpNumThreads=${inter} ignored: ORT runs no inter-op pool in sequential mode (add executionMode=parallel)`] : [];
}

/**
 * `inferbench tune`'s candidates besides the defaults, one change at a time
 * from them (plus the one pair that only acts together): the optimization
 * levels, sleeping intra-op threads, no memory pattern, no arena, and
 * parallel execution with a second inter-op thread.
 */
export const ORT_NODE_GRID: readonly EngineOptionValues[] = [
  { graphOptimizationLevel: 'extended' },
  { graphOptimizationLevel: 'basic' },
  { graphOptimizationLevel: 'disabled' },
  { 'session.intra_op.allow_spinning': '0' },
  { enableMemPattern: 'false' },
  { enableCpuMemArena: 'false' },
  { executionMode: 'parallel', interOpNumThreads: '2' },
];

/** onnx-wasm's: the optimization levels, two wasm threads, no memory pattern. */
export const ORT_WASM_GRID: readonly EngineOptionValues[] = [
  { graphOptimizationLevel: 'extended' },
  { graphOptimizationLevel: 'basic' },
  { graphOptimizationLevel: 'disabled' },
  { numThreads: '2' },
  { enableMemPattern: 'false' },
];

/**
 * The row's options and their read-back on an ORT session (onnxruntime-node's
 * engines and transformers.js, which runs on them): the canonical values, the
 * optimized graph's node count from the placement profile (every node that
 * ran, all providers), and the options ORT took without using.
 */
export function ortOptionFields(options: ResolvedSessionOptions, placement: ProviderPlacement | undefined): Pick<SessionDescription, 'engineOptions' | 'optionReadback' | 'ignoredOptions'> {
  const values = options.engineOptions ?? {};
  const graphNodes = placement === undefined ? null : Object.values(placement.byProvider).reduce((n, p) => n + p.nodes, 0);
  const ignored = ignoredOrtOptions(options.engineOptions);
  return {
    engineOptions: canonicalOptions(values),
    ...(graphNodes === null ? {} : { optionReadback: { graphNodes: String(graphNodes) } }),
    ...(ignored.length > 0 ? { ignoredOptions: ignored } : {}),
  };
}
