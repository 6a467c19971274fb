/**
 * Benchmark page for onnxruntime-web (browser-onnx-wasm, browser-onnx-webgpu).
 * ORT is not bundled: its own ESM build and .wasm files are served from the
 * project's node_modules and imported by URL, as a site would load them.
 */
import { fetchBytes, installPage, type PageTensor, type PageTensorMap } from './page-common.js';
import type { PageOpenRequest } from './protocol.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

let ort: Any;
let session: Any;
let backend: 'wasm' | 'webgpu' = 'wasm';

function outputsOf(result: Record<string, Any>): Promise<PageTensorMap> {
  return (async () => {
    const out: PageTensorMap = {};
    for (const [name, t] of Object.entries(result)) {
      // getData() downloads a GPU-resident tensor; on the CPU it is the data itself. The call is done only once this resolves.
      const data = (typeof t.getData === 'function' ? await t.getData() : t.data) as PageTensor['data'];
      out[name] = { dtype: t.type === 'float32' ? 'float32' : t.type === 'int64' ? 'int64' : t.type === 'int32' ? 'int32' : 'bool', dims: [...t.dims], data };
    }
    return out;
  })();
}

/**
 * Builds the model once more, untimed, with ORT's verbose log on: it prints
 * where each node went ("Node(s) placed on [X]. Number of nodes: N"), which
 * the Node side reads from the page's console (onnxruntime-web has no
 * placement API, and nodes the WebGPU EP lacks go to the CPU without a word).
 */
async function logWebgpuPlacement(bytes: Uint8Array): Promise<void> {
  ort.env.logLevel = 'verbose';
  try {
    const probe = await ort.InferenceSession.create(bytes, { executionProviders: ['webgpu'], graphOptimizationLevel: 'all', logSeverityLevel: 0, logVerbosityLevel: 0 });
    await probe.release();
  } finally {
    ort.env.logLevel = 'error';
  }
}

installPage<Record<string, Any>>({
  async open(request: PageOpenRequest, caps) {
    backend = request.backend === 'webgpu' ? 'webgpu' : 'wasm';
    const moduleUrl = request.assets['ortModule'];
    if (!moduleUrl) throw new Error('no ORT module URL');
    ort = await import(/* @vite-ignore */ moduleUrl);
    ort.env.wasm.wasmPaths = request.assets['ortWasm'];
    if (request.threads !== null) ort.env.wasm.numThreads = request.threads;
    ort.env.logLevel = 'error';
    if (backend === 'webgpu' && caps.webgpuAdapter === null) throw new Error(`WebGPU: ${caps.webgpuUnavailable ?? 'no adapter'}`);
    const options = { executionProviders: [backend], graphOptimizationLevel: 'all' };
    // The one-node graph starts the runtime (wasm compile, thread pool, WebGPU device) so the model's build is timed alone.
    const t0 = performance.now();
    const warm = await ort.InferenceSession.create(await fetchBytes(request.warmupModelUrl), options);
    await warm.release();
    const runtimeInitMs = performance.now() - t0;
    const t1 = performance.now();
    const bytes = await fetchBytes(request.modelUrl);
    session = await ort.InferenceSession.create(bytes, options);
    const sessionBuildMs = performance.now() - t1;
    if (backend === 'webgpu') await logWebgpuPlacement(bytes);
    // ORT runs one thread without SharedArrayBuffer (no COOP/COEP, or WebKitGTK without its switch), whatever numThreads says; read what it kept.
    const kept = Number(ort.env.wasm.numThreads);
    const shared = caps.crossOriginIsolated && caps.sharedArrayBuffer !== false;
    const threads = shared ? (kept > 0 ? kept : 1) : 1;
    const why = !caps.crossOriginIsolated ? ' (no SharedArrayBuffer without COOP/COEP)' : shared ? '' : ' (SharedArrayBuffer is undefined in this browser although the page is cross-origin isolated)';
    const notes = [
      `crossOriginIsolated ${caps.crossOriginIsolated}, SharedArrayBuffer ${caps.sharedArrayBuffer !== false}; ORT wasm threads ${threads}${why}`,
      `wasm SIMD ${caps.simd ? 'on' : 'off'}`,
    ];
    if (backend === 'webgpu') notes.push(`WebGPU adapter: ${caps.webgpuAdapter}`);
    return {
      backend,
      threads: backend === 'webgpu' ? null : threads,
      precision: 'fp32',
      versions: { 'onnxruntime-web': String(ort.env.versions?.web ?? ort.env.versions?.common ?? 'unknown') },
      notes,
      runtimeInitMs,
      sessionBuildMs,
    };
  },
  prepare(batch) {
    const feeds: Record<string, Any> = {};
    for (const [name, t] of Object.entries(batch.tensors)) feeds[name] = new ort.Tensor(t.dtype, t.data, t.dims);
    return feeds;
  },
  async run(feeds) {
    return { outputs: await outputsOf(await session.run(feeds)), forwardMs: null };
  },
  memory: () => null,
  async dispose() {
    await session?.release();
  },
});
