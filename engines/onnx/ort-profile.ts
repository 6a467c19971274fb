/**
 * ONNX Runtime's own profiler as `run --profile`'s instrument for
 * onnxruntime-node, onnxruntime-web and transformers.js. Profiling is a
 * session option in ORT (onnxruntime-node has no startProfiling), so the
 * instrument is a second session on the same file with the timed session's
 * own options plus `enableProfiling`, created after the timed rounds in the
 * same process. Its JSON trace (Chrome trace events: `cat: "Node"`,
 * `<node>_kernel_time`, `args.op_name`, `args.provider`, `dur` in µs, one
 * `model_run` span per call) is read back, then deleted.
 */
import { createRequire } from 'node:module';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpProfiler } from '../../src/core/engine-session.js';
import { PROFILE_SOURCES, type NodeEvent, type ProfileCapture } from '../../src/core/op-profile.js';
import { fromOrtOutputs, preparedOrtCall, toOrtFeeds, type OrtRunner, type OrtTensorCtor } from './ort-tensors.js';

interface TraceEvent {
  readonly cat?: string;
  readonly name?: string;
  readonly ts?: number;
  readonly dur?: number;
  readonly args?: { readonly provider?: string; readonly op_name?: string };
}

/** Providers whose node events time the host issuing GPU work, not the GPU running it. */
const HOST_DISPATCH_PROVIDERS = new Set(['WebGpuExecutionProvider', 'JsExecutionProvider']);

/**
 * The node events of the last `lastRuns` calls of an ORT trace, each tagged
 * with its call's index among them (0 first). Only `_kernel_time` events
 * count: ORT also writes fence events on some builds, which would double
 * count. The source says `host dispatch only` when a WebGPU provider ran
 * nodes: ORT stamps its events on the host, around the dispatch.
 */
export function ortTraceEvents(trace: readonly unknown[], lastRuns: number): ProfileCapture {
  const events = trace as readonly TraceEvent[];
  const runs = events
    .filter((e) => e.cat === 'Session' && e.name === 'model_run' && typeof e.ts === 'number' && typeof e.dur === 'number')
    .sort((a, b) => (a.ts as number) - (b.ts as number))
    .slice(-lastRuns);
  if (runs.length === 0) return { source: PROFILE_SOURCES.ort, events: [], unattributed: 'the ORT trace has no model_run event' };
  const out: NodeEvent[] = [];
  let hostDispatch = false;
  for (const e of events) {
    if (e.cat !== 'Node' || typeof e.name !== 'string' || !e.name.endsWith('_kernel_time') || typeof e.ts !== 'number' || typeof e.dur !== 'number') continue;
    const ts = e.ts;
    const batch = runs.findIndex((r) => ts >= (r.ts as number) && ts <= (r.ts as number) + (r.dur as number));
    if (batch < 0) continue;
    const provider = e.args?.provider;
    if (provider !== undefined && HOST_DISPATCH_PROVIDERS.has(provider)) hostDispatch = true;
    out.push({ batch, node: e.name.slice(0, -'_kernel_time'.length), opType: e.args?.op_name ?? 'unknown', startUs: ts, durUs: e.dur, ...(provider ? { provider } : {}) });
  }
  return {
    source: hostDispatch ? PROFILE_SOURCES.ortHostDispatch : PROFILE_SOURCES.ort,
    events: out,
    ...(runs.length < lastRuns ? { notes: [`the trace held ${runs.length} of the ${lastRuns} profiled calls`] } : {}),
  };
}

/** The ORT session pieces the instrument uses (node and web builds alike). */
export interface ProfilingOrtSession extends OrtRunner {
  endProfiling(): unknown;
  release(): Promise<void>;
}

/** An OpProfiler over an ORT session created with profiling on; `readTrace` returns the trace once profiling ended. */
function ortProfiler(session: ProfilingOrtSession, Tensor: OrtTensorCtor, readTrace: () => Promise<unknown>, cleanup: () => Promise<void>): OpProfiler {
  let released = false;
  const release = async (): Promise<void> => {
    if (released) return;
    released = true;
    await session.release().catch(() => {});
    await cleanup();
  };
  return {
    session: {
      run: async (inputs) => fromOrtOutputs(await session.run(toOrtFeeds(Tensor, inputs))),
      prepareCall: (inputs) => preparedOrtCall(session, Tensor, inputs),
    },
    needsWarmPass: true,
    async finish(lastCalls) {
      const trace = await readTrace();
      if (!Array.isArray(trace)) return { source: PROFILE_SOURCES.ort, events: [], unattributed: 'the ORT trace is not a JSON array of trace events' };
      return ortTraceEvents(trace, lastCalls);
    },
    dispose: release,
  };
}

/** A fresh temp folder for an onnxruntime-node trace: the `profileFilePrefix` to give ORT, the read of the one trace it writes, and the removal. */
export async function ortTraceFolder(): Promise<{ readonly prefix: string; read(): Promise<unknown>; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-op-profile-'));
  return {
    prefix: join(dir, 'profile'),
    async read() {
      const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));
      if (files.length !== 1) throw new Error(`expected one ORT profile in ${dir}, found ${files.length}`);
      return JSON.parse(await readFile(join(dir, files[0] as string), 'utf8')) as unknown;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * onnxruntime-node: the trace is a file ORT names itself, in a fresh temp
 * folder given as `profileFilePrefix`; the folder is removed on dispose.
 */
export async function ortNodeProfiler(
  create: (options: object) => Promise<ProfilingOrtSession>,
  options: object,
  Tensor: OrtTensorCtor,
): Promise<OpProfiler> {
  const folder = await ortTraceFolder();
  let session: ProfilingOrtSession;
  try {
    session = await create({ ...options, enableProfiling: true, profileFilePrefix: folder.prefix });
  } catch (err) {
    await folder.remove();
    throw err;
  }
  return ortProfiler(session, Tensor, async () => {
    session.endProfiling();
    return folder.read();
  }, folder.remove);
}

/**
 * onnxruntime-web's wasm build in Node writes its trace to file descriptor 1
 * with `fs.writeSync` when profiling ends (its emscripten `print`), and
 * hands back no file. The writes to fd 1 during the synchronous
 * `endProfiling` call are taken instead of printed, and parsed.
 */
export async function ortWebProfiler(create: (options: object) => Promise<ProfilingOrtSession>, options: object, Tensor: OrtTensorCtor): Promise<OpProfiler> {
  const session = await create({ ...options, enableProfiling: true });
  return ortProfiler(session, Tensor, async () => JSON.parse(takeStdoutWrites(() => session.endProfiling())) as unknown, async () => {});
}

/** Runs `fn` (synchronous) with `fs.writeSync` to fd 1 captured, and returns what it wrote. */
export function takeStdoutWrites(fn: () => unknown): string {
  const chunks: string[] = [];
  // The CommonJS module object, which the wasm build's require('fs') holds (an ES namespace cannot be patched).
  const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');
  const original = fs.writeSync;
  const mutable = fs as unknown as { writeSync: (fd: number, data: unknown, ...rest: unknown[]) => number };
  mutable.writeSync = (fd, data, ...rest) => {
    if (fd !== 1) return (original as (...a: unknown[]) => number)(fd, data, ...rest);
    const text = typeof data === 'string' ? data : Buffer.from(data as Uint8Array).toString('utf8');
    chunks.push(text);
    return Buffer.byteLength(text);
  };
  try {
    fn();
  } finally {
    mutable.writeSync = original as typeof mutable.writeSync;
  }
  return chunks.join('');
}
