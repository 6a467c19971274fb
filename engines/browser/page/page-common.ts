/**
 * The part of every benchmark page that does not depend on the runtime:
 * decoding batches, reading the page's capabilities, the timed call and the
 * heap figures. Each runtime's entry (page-ort.ts, page-tfjs-*.ts,
 * page-transformers.ts) supplies a `PageRuntime` and calls `installPage`.
 * This file runs in Chromium, bundled by esbuild; it must not import Node.
 */
import type { HeapFigure, PageApi, PageCapabilities, PageOpenRequest, PageOpenResult, PageRunResult, WireBatch, WireDType, WireMap, WireTensor } from './protocol.js';

/** A host tensor in the page: the same shape as src/core/tensor.ts's HostTensor. */
export interface PageTensor {
  readonly dtype: WireDType;
  readonly dims: readonly number[];
  readonly data: Float32Array | BigInt64Array | Int32Array | Uint8Array;
}

export type PageTensorMap = Record<string, PageTensor>;

/** A decoded batch as a runtime receives it. */
export interface PageBatch {
  readonly tensors: PageTensorMap;
  readonly texts: readonly string[] | null;
}

/** One runtime (ORT, tfjs, transformers.js) as the page drives it. */
export interface PageRuntime<Prepared> {
  open(request: PageOpenRequest, caps: PageCapabilities): Promise<Omit<PageOpenResult, 'heap'>>;
  /** Turns a batch into the runtime's own inputs, outside the timed region. */
  prepare(batch: PageBatch): Prepared;
  /** The engine call; resolves once every output is readable on the CPU. */
  run(prepared: Prepared): Promise<{ readonly outputs: PageTensorMap; readonly forwardMs: number | null }>;
  memory(): { numTensors: number; numBytes: number } | null;
  dispose(): Promise<void>;
}

// The page is compiled with Node's types (tsconfig has no DOM lib), so the DOM is reached untyped here.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;
const g = globalThis as Any;

function fromBase64(b64: string): Uint8Array {
  const s = atob(b64);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

export function decodeTensor(t: WireTensor): PageTensor {
  const bytes = fromBase64(t.b64);
  const buf = bytes.buffer;
  const data =
    t.dtype === 'float32' ? new Float32Array(buf) : t.dtype === 'int64' ? new BigInt64Array(buf) : t.dtype === 'int32' ? new Int32Array(buf) : new Uint8Array(buf);
  return { dtype: t.dtype, dims: [...t.dims], data };
}

export function encodeTensors(map: PageTensorMap): WireMap {
  const out: Record<string, WireTensor> = {};
  for (const [name, t] of Object.entries(map)) {
    const view = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    out[name] = { dtype: t.dtype, dims: [...t.dims], b64: toBase64(view) };
  }
  return out;
}

/**
 * What the page offers. Self-contained (no module-level names), because the
 * engines' probe also hands this very function to Playwright's evaluate on a
 * bare page, so the probe and the benchmark page read capabilities the same way.
 */
export async function readCapabilities(): Promise<PageCapabilities> {
  const g = globalThis as Any;
  // A wasm module using one SIMD instruction (i8x16.splat): validates only where wasm SIMD is supported.
  const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
  let webglRenderer: string | null = null;
  let webglUnavailable: string | undefined;
  try {
    const gl = g.document.createElement('canvas').getContext('webgl2');
    if (!gl) webglUnavailable = 'the page got no WebGL2 context';
    else {
      const ext = gl.getExtension('WEBGL_debug_renderer_info');
      webglRenderer = String(ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    }
  } catch (err) {
    webglUnavailable = `WebGL2 failed: ${String(err)}`;
  }
  let webgpuAdapter: string | null = null;
  let webgpuUnavailable: string | undefined;
  let webgpuInfo: PageCapabilities['webgpuInfo'];
  let webgpuFeatures: string[] | undefined;
  if (!g.navigator.gpu) webgpuUnavailable = 'navigator.gpu is undefined (WebGPU disabled in this browser or not a secure context)';
  else {
    try {
      const adapter = await g.navigator.gpu.requestAdapter();
      if (!adapter) webgpuUnavailable = 'navigator.gpu.requestAdapter() returned null (no adapter: no GPU and no software adapter)';
      else {
        const info = adapter.info ?? {};
        const fallback = info.isFallbackAdapter === true || adapter.isFallbackAdapter === true;
        webgpuAdapter = [info.vendor, info.architecture, info.description, fallback ? 'fallback adapter' : ''].filter((s: unknown) => typeof s === 'string' && s !== '').join(' / ') || 'an adapter with empty info fields';
        webgpuInfo = { vendor: String(info.vendor ?? ''), architecture: String(info.architecture ?? ''), device: String(info.device ?? ''), description: String(info.description ?? ''), isFallbackAdapter: fallback };
        webgpuFeatures = [...(adapter.features ?? [])].map(String).sort();
      }
    } catch (err) {
      webgpuUnavailable = `requestAdapter failed: ${String(err)}`;
    }
  }
  // The smallest non-zero step of performance.now(): browsers coarsen the clock (more so without cross-origin isolation).
  let timerResolutionMs = Infinity;
  let last = g.performance.now();
  const until = last + 50;
  for (let i = 0; i < 2_000_000 && last < until; i++) {
    const now = g.performance.now();
    if (now > last) {
      timerResolutionMs = Math.min(timerResolutionMs, now - last);
      last = now;
    }
  }
  return {
    userAgent: String(g.navigator.userAgent),
    timerResolutionMs: Number.isFinite(timerResolutionMs) ? Math.round(timerResolutionMs * 1e6) / 1e6 : null,
    sharedArrayBuffer: typeof g.SharedArrayBuffer === 'function',
    ...(webgpuInfo ? { webgpuInfo } : {}),
    ...(webgpuFeatures ? { webgpuFeatures } : {}),
    crossOriginIsolated: g.crossOriginIsolated === true,
    hardwareConcurrency: Number(g.navigator.hardwareConcurrency ?? 1),
    simd: (g.WebAssembly as Any).validate(SIMD_PROBE) === true,
    webglRenderer,
    ...(webglUnavailable ? { webglUnavailable } : {}),
    webgpuAdapter,
    ...(webgpuUnavailable ? { webgpuUnavailable } : {}),
  };
}

/** Used JS heap right now, from Chrome's performance.memory (precise with --enable-precise-memory-info); null elsewhere. */
export function usedHeapBytes(): number | null {
  const m = g.performance.memory;
  return m && typeof m.usedJSHeapSize === 'number' ? m.usedJSHeapSize : null;
}

/**
 * The page's memory after opening: measureUserAgentSpecificMemory where the
 * page is cross-origin isolated (every JS heap and wasm memory of the page
 * and its workers), else performance.memory (the main thread's JS heap only).
 * The first waits for a garbage collection, so it is bounded by a timeout.
 */
async function heapFigure(): Promise<HeapFigure | null> {
  let why = 'the page is not cross-origin isolated';
  if (g.crossOriginIsolated === true && typeof g.performance.measureUserAgentSpecificMemory === 'function') {
    const measured = await Promise.race([
      g.performance.measureUserAgentSpecificMemory().then((r: Any) => r as { bytes: number }),
      new Promise<string>((resolve) => setTimeout(() => resolve('no answer within 3 s'), 3000)),
    ]).catch((err: unknown) => `failed: ${String(err)}`);
    if (typeof measured !== 'string') {
      return { bytes: measured.bytes, source: 'measureUserAgentSpecificMemory', covers: "the JS heaps and DOM of the page and its workers, as Chromium's measureUserAgentSpecificMemory breaks them down, after the model loaded" };
    }
    why = `measureUserAgentSpecificMemory ${measured}`;
  }
  const used = usedHeapBytes();
  return used === null
    ? null
    : { bytes: used, source: 'performance.memory', covers: `the main thread's JS heap only (usedJSHeapSize; wasm memory and workers not included), after the model opened; ${why}` };
}

/** A call is timed alone when it lasts at least this many steps of the page's clock, else in a group of calls. */
export const GROUP_STEPS = 20;
/** Most calls in one timed group. */
const MAX_GROUP = 1000;

/**
 * Times one call on the page's clock. A call shorter than GROUP_STEPS steps
 * of that clock is mostly rounding (Firefox and WebKit give 20 µs steps even
 * cross-origin isolated, 1 ms or more without), so it is timed again as a
 * group of calls of the same batch, as many as it takes the clock to move
 * GROUP_STEPS steps (at most MAX_GROUP), and the group's time divided; the lone first call is not counted. `group` says how
 * many calls the figure stands for.
 */
export async function timedCall<T>(call: () => Promise<T>, step: number, now: () => number): Promise<{ readonly result: T; readonly ms: number; readonly group: number }> {
  const t0 = now();
  let result = await call();
  const ms = now() - t0;
  if (!(step > 0) || ms >= GROUP_STEPS * step) return { result, ms, group: 1 };
  // Calls until the clock has moved GROUP_STEPS steps (the first call's reading is too coarse to size the group in advance).
  let group = 0;
  let elapsed = 0;
  const t1 = now();
  while (group < MAX_GROUP && elapsed < GROUP_STEPS * step) {
    result = await call();
    group++;
    elapsed = now() - t1;
  }
  return { result, ms: elapsed / group, group };
}

/** Installs `globalThis.__inferbench` for the Node driver. */
export function installPage<Prepared>(runtime: PageRuntime<Prepared>): void {
  const batches = new Map<number, Prepared>();
  let caps: Promise<PageCapabilities> | undefined;
  let hang = false;
  const api: PageApi = {
    capabilities: () => (caps ??= readCapabilities()),
    async open(request) {
      if (request.simulateOpenFailure) throw new Error(request.simulateOpenFailure);
      hang = request.simulateHang === true;
      const opened = await runtime.open(request, await api.capabilities());
      return { ...opened, heap: await heapFigure() };
    },
    upload(items: readonly (readonly [number, WireBatch])[]) {
      for (const [id, batch] of items) {
        const tensors: PageTensorMap = {};
        for (const [name, t] of Object.entries(batch.tensors)) tensors[name] = decodeTensor(t);
        batches.set(id, runtime.prepare({ tensors, texts: batch.texts }));
      }
    },
    async run(id: number): Promise<PageRunResult> {
      const prepared = batches.get(id);
      if (prepared === undefined) throw new Error(`batch ${id} was never uploaded to the page`);
      if (hang) await new Promise(() => undefined);
      const step = (await api.capabilities()).timerResolutionMs ?? 0;
      const { result, ms, group } = await timedCall(() => runtime.run(prepared), step, () => performance.now());
      return { ms, group, forwardMs: result.forwardMs, outputs: encodeTensors(result.outputs), heapBytes: usedHeapBytes(), engineMemory: runtime.memory() };
    },
    async dispose() {
      batches.clear();
      await runtime.dispose();
    },
  };
  g.__inferbench = api;
}

/** Fetches bytes from the loopback server. */
export async function fetchBytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}
