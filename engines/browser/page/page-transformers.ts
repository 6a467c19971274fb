/**
 * Benchmark page for transformers.js (browser-transformers-js): its
 * text-classification pipeline end to end on raw texts (tokenize, forward,
 * post-process), as in Node, with the model folder served from the loopback
 * server and no remote models. The pipeline's own ONNX session is wrapped
 * so each raw forward is timed and its logits kept for parity.
 */
import { env, pipeline } from '@huggingface/transformers';
import { installPage, type PageTensor, type PageTensorMap } from './page-common.js';
import type { PageLoadRequest } from './protocol.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

let pipe: Any;
let lastForwardMs: number | null = null;
let lastOutputs: Record<string, Any> | null = null;

/**
 * Builds the pipeline once more, untimed, with ORT's verbose log on (as
 * page-ort does): onnxruntime-web prints where each node went ("Node(s)
 * placed on [X]. Number of nodes: N") and the Node side reads it from the
 * console, since nodes the WebGPU EP lacks go to the CPU without a word.
 */
async function logWebgpuPlacement(spec: NonNullable<PageLoadRequest['pipeline']>, e: Any): Promise<void> {
  const onnx = e.backends.onnx;
  const level = onnx.logLevel;
  onnx.logLevel = 'verbose';
  try {
    const probe = await pipeline('text-classification', spec.modelId, { device: 'webgpu', dtype: spec.dtype, session_options: { logSeverityLevel: 0, logVerbosityLevel: 0 } } as Any);
    await probe.dispose();
  } finally {
    onnx.logLevel = level ?? 'warning';
  }
}

installPage<readonly string[]>({
  async load(request, caps) {
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
    pipe = await pipeline('text-classification', spec.modelId, { device, dtype: spec.dtype } as Any);
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
    const threads = device === 'webgpu' ? null : caps.crossOriginIsolated ? (kept > 0 ? kept : 1) : 1;
    return {
      backend: device,
      threads,
      precision: spec.dtype === 'fp32' ? 'fp32' : 'unknown',
      versions: { '@huggingface/transformers': String(e.version ?? 'unknown') },
      notes: [
        "engine time is the pipeline's own ONNX forward; end to end is the whole pipeline call, which includes tokenization and post-processing (text-classification pipeline)",
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
    await pipe([...texts]);
    const out: PageTensorMap = {};
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
