/**
 * Benchmark page for transformers.js (browser-transformers-js): its
 * pipeline end to end on raw texts (tokenize, forward, post-process), as in
 * Node, with the model folder served from the loopback server and no remote
 * models: text-classification for a classifier, feature-extraction for a
 * sentence-embedding model (the task the Node side chose). The pipeline's
 * own ONNX session is wrapped so each raw forward is timed and its outputs
 * kept for parity; a pipeline that pools returns its vectors instead.
 */
import { env, pipeline } from '@huggingface/transformers';
import { installPage, type PageTensor, type PageTensorMap } from './page-common.js';
import type { PageOpenRequest } from './protocol.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

let pipe: Any;
/** The call options of a feature-extraction pipeline that pools; null: the forward's outputs are returned. */
let pooled: NonNullable<PageOpenRequest['pipeline']>['call'] = null;
let lastForwardMs: number | null = null;
let lastOutputs: Record<string, Any> | null = null;

/**
 * Builds the pipeline once more, untimed, with ORT's verbose log on (as
 * page-ort does): onnxruntime-web prints where each node went ("Node(s)
 * placed on [X]. Number of nodes: N") and the Node side reads it from the
 * console, since nodes the WebGPU EP lacks go to the CPU without a word.
 */
async function logWebgpuPlacement(spec: NonNullable<PageOpenRequest['pipeline']>, e: Any): Promise<void> {
  const onnx = e.backends.onnx;
  const level = onnx.logLevel;
  onnx.logLevel = 'verbose';
  try {
    const probe = await pipeline(spec.task, spec.modelId, { device: 'webgpu', dtype: spec.dtype, session_options: { logSeverityLevel: 0, logVerbosityLevel: 0 } } as Any);
    await probe.dispose();
  } finally {
    onnx.logLevel = level ?? 'warning';
  }
}

installPage<readonly string[]>({
  async open(request, caps) {
    const spec = request.pipeline;
    if (!spec) throw new Error('transformers.js needs a model folder');
    const device = request.backend === 'webgpu' ? 'webgpu' : 'wasm';
    if (device === 'webgpu' && caps.webgpuAdapter === null) throw new Error(`WebGPU: ${caps.webgpuUnavailable ?? 'no adapter'}`);
    const e = env as Any;
    e.allowRemoteModels = false;
    e.allowLocalModels = true;
    // A path, not a full URL: transformers.js 4.3 skips its existence check for local paths that are http URLs,
    // and then finds no tokenizer (the pipeline's tokenizer comes back null).
    const origin = String((globalThis as Any).location?.origin ?? '');
    e.localModelPath = origin && spec.root.startsWith(origin) ? spec.root.slice(origin.length) : spec.root;
    e.useBrowserCache = false;
    const wasm = e.backends.onnx.wasm;
    wasm.wasmPaths = request.assets['ortWasm'];
    if (request.threads !== null) wasm.numThreads = request.threads;
    const t0 = performance.now();
    pipe = await pipeline(spec.task, spec.modelId, { device, dtype: spec.dtype } as Any);
    pooled = spec.call;
    const sessionBuildMs = performance.now() - t0;
    if (typeof pipe.tokenizer !== 'function') throw new Error('transformers.js loaded the pipeline without a tokenizer (tokenizer.json / tokenizer_config.json not found under the model folder)');
    const session = pipe.model.sessions['model'];
    if (!session) throw new Error(`transformers.js loaded the model without a "model" session`);
    const original = session.run.bind(session);
    session.run = async (feeds: Any, ...rest: Any[]) => {
      const t = performance.now();
      const out = await original(feeds, ...rest);
      lastForwardMs = (lastForwardMs ?? 0) + (performance.now() - t);
      lastOutputs = out;
      return out;
    };
    const ran = session.config?.device;
    if (typeof ran === 'string' && ran !== device) throw new Error(`transformers.js ran on ${ran}, not ${device}; not falling back`);
    if (device === 'webgpu') await logWebgpuPlacement(spec, e);
    const kept = Number(wasm.numThreads);
    const threads = device === 'webgpu' ? null : caps.crossOriginIsolated && caps.sharedArrayBuffer !== false ? (kept > 0 ? kept : 1) : 1;
    return {
      backend: device,
      threads,
      precision: spec.dtype === 'fp32' ? 'fp32' : 'unknown',
      versions: { '@huggingface/transformers': String(e.version ?? 'unknown') },
      notes: [
        spec.note,
        `crossOriginIsolated ${caps.crossOriginIsolated}; onnxruntime-web wasm threads ${threads ?? 'n/a'}`,
        `wasm SIMD ${caps.simd ? 'on' : 'off'}`,
        'runtime start-up is inside the pipeline build (transformers.js starts onnxruntime-web itself)',
      ],
      runtimeInitMs: null,
      sessionBuildMs,
    };
  },
  prepare(batch) {
    if (!batch.texts) throw new Error('transformers.js runs the pipeline on raw texts, and these inputs carry none');
    return batch.texts;
  },
  async run(texts) {
    lastForwardMs = null;
    lastOutputs = null;
    const result = await pipe([...texts], pooled ?? undefined);
    const out: PageTensorMap = {};
    // The pipeline's own pooled (and normalised) vectors [batch, width]: what a transformers.js user stores.
    if (pooled !== null) {
      const data = (result.data instanceof Float32Array ? result.data : Float32Array.from(result.data)) as PageTensor['data'];
      return { outputs: { sentence_embedding: { dtype: 'float32', dims: [...result.dims], data } }, forwardMs: lastForwardMs };
    }
    for (const [name, t] of Object.entries(lastOutputs ?? {}) as [string, Any][]) {
      const data = (typeof t.getData === 'function' ? await t.getData() : t.data) as PageTensor['data'];
      if (t.type === 'float32') out[name] = { dtype: 'float32', dims: [...t.dims], data };
    }
    return { outputs: out, forwardMs: lastForwardMs };
  },
  memory: () => null,
  async dispose() {
    await pipe?.dispose();
  },
});
