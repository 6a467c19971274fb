/**
 * Reads where ONNX Runtime really placed a graph's nodes, from ORT's own
 * profiler. A GPU provider silently hands the nodes it lacks to the CPU
 * provider, and onnxruntime-node has no API that lists the placement, so a
 * short-lived profiling session runs the graph once on a dummy input built
 * from its signature and its JSON trace is read back. The timed session never
 * profiles: the trace costs time on every run.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProviderPlacement } from '../../src/core/engine-session.js';
import type { OrtTensorCtor, OrtTensorLike } from './ort-tensors.js';

export const CPU_PROVIDER = 'CPUExecutionProvider';
export const WEBGPU_PROVIDER = 'WebGpuExecutionProvider';

/** One event of ORT's Chrome-trace profile; Node events carry the provider and op type of one kernel run. */
interface ProfileEvent {
  readonly cat?: string;
  readonly name?: string;
  readonly dur?: number;
  readonly args?: { readonly provider?: string; readonly op_name?: string };
}

/**
 * Placement from a parsed profile: distinct nodes and summed kernel time per
 * provider, and the op types the CPU provider ran when `requested` is another
 * provider. Node events come as `<node>_kernel_time` (ORT also emits fence
 * events on some builds, which would double count).
 */
export function placementFromProfile(events: readonly unknown[], requested: string): ProviderPlacement {
  const nodes = new Map<string, Set<string>>();
  const time = new Map<string, number>();
  const cpuOps = new Set<string>();
  for (const raw of events) {
    const e = raw as ProfileEvent;
    if (e.cat !== 'Node' || typeof e.name !== 'string' || !e.name.endsWith('_kernel_time')) continue;
    const provider = e.args?.provider;
    if (typeof provider !== 'string') continue;
    const set = nodes.get(provider) ?? new Set<string>();
    set.add(e.name.slice(0, -'_kernel_time'.length));
    nodes.set(provider, set);
    time.set(provider, (time.get(provider) ?? 0) + (typeof e.dur === 'number' ? e.dur : 0));
    if (provider === CPU_PROVIDER && requested !== CPU_PROVIDER && typeof e.args?.op_name === 'string') cpuOps.add(e.args.op_name);
  }
  const byProvider: Record<string, { nodes: number; timeUs: number }> = {};
  for (const [provider, set] of [...nodes].sort(([a], [b]) => a.localeCompare(b))) {
    byProvider[provider] = { nodes: set.size, timeUs: time.get(provider) ?? 0 };
  }
  return { byProvider, cpuFallbackOps: [...cpuOps].sort() };
}

/** Providers that ran nodes, most nodes first (`CUDAExecutionProvider+CPUExecutionProvider`): the backend as ORT placed it. */
export function placementBackend(placement: ProviderPlacement): string {
  return Object.entries(placement.byProvider)
    .sort(([, a], [, b]) => b.nodes - a.nodes)
    .map(([provider]) => provider)
    .join('+');
}

/** Why a GPU cell must not run: the requested provider took no node, so the whole graph ran on the CPU. */
export function noGpuNodes(placement: ProviderPlacement, requested: string): string | null {
  if ((placement.byProvider[requested]?.nodes ?? 0) > 0) return null;
  const ran = Object.entries(placement.byProvider).map(([p, n]) => `${n.nodes} on ${p}`).join(', ') || 'no node';
  return `${requested} was requested but ORT placed no node on it (${ran}; ops ${placement.cpuFallbackOps.join(', ')}): the run would measure the CPU`;
}

/** Input metadata as onnxruntime-node 1.30 reports it (`session.inputMetadata`). */
interface InputMetadata {
  readonly name: string;
  readonly isTensor: boolean;
  readonly type?: string;
  readonly shape?: readonly (number | string)[];
}

const ARRAYS: Readonly<Record<string, new (n: number) => ArrayLike<unknown>>> = {
  float32: Float32Array,
  float64: Float64Array,
  float16: Uint16Array,
  int64: BigInt64Array,
  uint64: BigUint64Array,
  int32: Int32Array,
  uint32: Uint32Array,
  int16: Int16Array,
  uint16: Uint16Array,
  int8: Int8Array,
  uint8: Uint8Array,
  bool: Uint8Array,
};

/**
 * A feed for every input, from the graph signature alone: symbolic dims are 1
 * (`pastLength`, default 0, for past key/value lengths: the empty cache a decoder starts from),
 * masks are ones and everything else zeros, valid indices for any embedding.
 */
export function dummyFeeds(Tensor: OrtTensorCtor, inputs: readonly InputMetadata[], pastLength = 0): Record<string, OrtTensorLike> {
  const feeds: Record<string, OrtTensorLike> = {};
  for (const input of inputs) {
    const type = input.type ?? 'float32';
    const TypedArray = ARRAYS[type];
    if (!input.isTensor || TypedArray === undefined) throw new Error(`input ${input.name} of type ${type} cannot be filled from the signature`);
    const dims = (input.shape ?? []).map((d, axis) => dummyDim(input.name, d, axis, pastLength));
    const data = new TypedArray(dims.reduce((a, b) => a * b, 1)) as unknown as { fill(v: unknown): unknown };
    if (/mask/i.test(input.name)) data.fill(type === 'int64' || type === 'uint64' ? 1n : 1);
    feeds[input.name] = new Tensor(type, data, dims);
  }
  return feeds;
}

/**
 * One dim of a dummy feed. A symbolic past length is `pastLength`; a sum with
 * it (an attention mask's `past_sequence + sequence`) is one more, so the mask
 * covers the one new token (a zero-length mask made ORT print a raw Gather
 * error on every decoder open); an unnamed dim of a past_key_values input is
 * the past length on its sequence axis (2) and 1 elsewhere.
 */
function dummyDim(name: string, d: unknown, axis: number, pastLength: number): number {
  if (typeof d === 'number' && d >= 0) return d;
  if (typeof d === 'string' && /past/i.test(d)) return d.includes('+') ? pastLength + 1 : pastLength;
  return /past/i.test(name) && axis === 2 ? pastLength : 1;
}

/** The onnxruntime-node pieces the profiling pass uses. */
export interface OrtNodeLike {
  readonly Tensor: OrtTensorCtor;
  readonly InferenceSession: {
    create(path: string, options: object): Promise<{
      readonly inputMetadata: readonly InputMetadata[];
      run(feeds: object): Promise<unknown>;
      endProfiling(): unknown;
      release(): Promise<void>;
    }>;
  };
}

/**
 * Creates a profiling session with `options` (the timed session's own, so
 * ORT optimises and partitions the graph the same way), runs it once on
 * dummy inputs, and returns the placement. The trace goes to a fresh temp
 * folder, removed before returning; the session is released either way.
 */
export async function profilePlacement(ort: OrtNodeLike, onnxPath: string, options: object, requested: string): Promise<ProviderPlacement> {
  const dir = await mkdtemp(join(tmpdir(), 'inferbench-ort-profile-'));
  try {
    const session = await ort.InferenceSession.create(onnxPath, { ...options, enableProfiling: true, profileFilePrefix: join(dir, 'placement') });
    try {
      // onnxruntime-node 1.30's WebGPU EP ends the process (SIGSEGV) on a zero-length past (gpt2-past fixture, SwiftShader), so its pass starts from a past of one.
      await session.run(dummyFeeds(ort.Tensor, session.inputMetadata, requested === WEBGPU_PROVIDER ? 1 : 0));
      // onnxruntime-node 1.30 returns nothing here (the typings say void); the trace is the one file in `dir`.
      session.endProfiling();
    } finally {
      await session.release();
    }
    const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));
    if (files.length !== 1) throw new Error(`expected one profile in ${dir}, found ${files.length}`);
    const events = JSON.parse(await readFile(join(dir, files[0] as string), 'utf8')) as unknown;
    if (!Array.isArray(events)) throw new Error('the profile is not a JSON array of trace events');
    return placementFromProfile(events, requested);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
