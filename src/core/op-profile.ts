/**
 * The op-level profile of one cell (`run --profile`): what an engine's own
 * instrument recorded on one untimed pass over the cell's rows, summed per
 * op type in one taxonomy (op-taxonomy.ts), beside the pass's engine time
 * per batch as the timed loop measures it. The remainder, engine time minus
 * the kernel sum, is the time outside the kernels (feeds, uploads,
 * read-back, dispatch, JavaScript glue). Pure: every view (terminal, CSV,
 * Parquet, chart, compare) reads the `CellProfile` this builds.
 */
import { OP_CLASSES, opClassOf, type OpClass } from './op-taxonomy.js';

/** What timed the ops, as the `source` column names it. */
export const PROFILE_SOURCES = {
  ort: 'ort profiler',
  ortHostDispatch: 'ort profiler (host dispatch only)',
  perNodeWall: 'per-node wall (synced)',
  tfProfile: 'tf.profile kernels',
  gpuTimestamps: 'gpu timestamps',
  hostDispatch: 'host dispatch only',
} as const;

/** The `op_type` of the remainder row. */
export const OUTSIDE_KERNELS = '(outside kernels)';

/** One node or kernel run an instrument recorded during one batch of the profiled pass. */
export interface NodeEvent {
  /** Index of the batch in the profiled pass, from 0. */
  readonly batch: number;
  /** Node (or kernel) name as the instrument gave it. */
  readonly node: string;
  /** ONNX op type (tfjs kernels already mapped). */
  readonly opType: string;
  /** Start on the instrument's clock in µs; null when the instrument gives none (its events are then taken as disjoint). */
  readonly startUs: number | null;
  readonly durUs: number;
  /** Execution provider or backend that ran it, where the instrument says. */
  readonly provider?: string;
}

/** What an instrument hands back after the profiled pass. */
export interface ProfileCapture {
  readonly source: string;
  readonly events: readonly NodeEvent[];
  /** Why no event could be attributed to an op (`unattributed: <reason>` in every view); absent when events were read. */
  readonly unattributed?: string;
  readonly notes?: readonly string[];
}

/** One batch of the profiled pass: its engine time, timed as the timed loop times a batch, and its rows. */
export interface ProfiledBatch {
  readonly engineMs: number;
  readonly items: number;
}

/** One op type's share of a cell's profiled pass. */
export interface OpTypeTime {
  readonly opType: string;
  readonly opClass: OpClass;
  readonly callsPerBatch: number;
  readonly msPerBatch: number;
  /** Of the profiled engine time (the outside-kernels row takes the rest). */
  readonly share: number;
}

/** The profile beside a cell in results.json. */
export interface CellProfile {
  readonly source: string;
  /** Batches and rows of the profiled pass. */
  readonly batches: number;
  readonly items: number;
  /** Mean engine time per batch of the profiled pass (the instrument's overhead included): compare with the timed mean. */
  readonly engineMsPerBatch: number;
  /** Sum of the kept (outermost) events per batch; never above `engineMsPerBatch`. */
  readonly kernelMsPerBatch: number;
  readonly outsideMsPerBatch: number;
  /** By op type, most time first. Empty when unattributed. */
  readonly ops: readonly OpTypeTime[];
  /** Op types the taxonomy lacks (counted as `other`). */
  readonly unclassified: readonly string[];
  /** Why the engine's time could not be attributed to ops; absent when it was. */
  readonly unattributed?: string;
  readonly notes?: readonly string[];
  /** Every kept event, for profile.parquet: [batch, index into `nodes`, µs]. */
  readonly calls: readonly (readonly [number, number, number])[];
  /** Node names and op types `calls` point into. */
  readonly nodes: readonly (readonly [string, string])[];
}

/**
 * The events each batch keeps: outermost only. Sorted by start (longest
 * first on a tie), an event inside a kept one is dropped and one
 * overlapping a kept one's end counts only the part after it, so nested or
 * overlapping events (a fused kernel and its parts, an outer
 * SequentialExecutor span) are never counted twice.
 */
export function outermostEvents(events: readonly NodeEvent[]): NodeEvent[] {
  const byBatch = new Map<number, NodeEvent[]>();
  for (const e of events) {
    if (!(e.durUs >= 0)) continue;
    const list = byBatch.get(e.batch) ?? [];
    list.push(e);
    byBatch.set(e.batch, list);
  }
  const kept: NodeEvent[] = [];
  for (const batch of [...byBatch.keys()].sort((a, b) => a - b)) {
    const list = byBatch.get(batch) as NodeEvent[];
    if (list.some((e) => e.startUs === null)) {
      kept.push(...list);
      continue;
    }
    list.sort((a, b) => (a.startUs as number) - (b.startUs as number) || b.durUs - a.durUs);
    let end = -Infinity;
    for (const e of list) {
      const start = e.startUs as number;
      const stop = start + e.durUs;
      if (stop <= end) continue;
      kept.push(start >= end ? e : { ...e, startUs: end, durUs: stop - end });
      end = stop;
    }
  }
  return kept;
}

/** A profile that could not be attributed, saying why; its whole engine time is outside the kernels. */
export function unattributedProfile(source: string, reason: string, batches: readonly ProfiledBatch[], notes: readonly string[] = []): CellProfile {
  const engineMs = mean(batches.map((b) => b.engineMs));
  return {
    source,
    batches: batches.length,
    items: batches.reduce((a, b) => a + b.items, 0),
    engineMsPerBatch: engineMs,
    kernelMsPerBatch: 0,
    outsideMsPerBatch: engineMs,
    ops: [],
    unclassified: [],
    unattributed: reason,
    ...(notes.length > 0 ? { notes } : {}),
    calls: [],
    nodes: [],
  };
}

/**
 * Sums a capture per op type, per batch of the pass. Kernel time that would
 * exceed the engine time it sits in (an instrument whose clock runs apart
 * from the host's) is scaled down to it, with a note saying by how much, so
 * shares always sum to 1 and the remainder is never negative.
 */
export function summarizeProfile(capture: ProfileCapture, batches: readonly ProfiledBatch[]): CellProfile {
  if (batches.length === 0) return unattributedProfile(capture.source, 'the profiled pass ran no batch', batches, capture.notes);
  if (capture.unattributed !== undefined) return unattributedProfile(capture.source, capture.unattributed, batches, capture.notes);
  const kept = outermostEvents(capture.events.filter((e) => e.batch >= 0 && e.batch < batches.length));
  if (kept.length === 0) return unattributedProfile(capture.source, `${capture.source} recorded no node event`, batches, capture.notes);
  const n = batches.length;
  const engineMs = mean(batches.map((b) => b.engineMs));
  const byType = new Map<string, { calls: number; us: number }>();
  const nodeIndex = new Map<string, number>();
  const nodes: (readonly [string, string])[] = [];
  const calls: (readonly [number, number, number])[] = [];
  for (const e of kept) {
    const t = byType.get(e.opType) ?? { calls: 0, us: 0 };
    t.calls++;
    t.us += e.durUs;
    byType.set(e.opType, t);
    const key = `${e.node}\u0000${e.opType}`;
    let i = nodeIndex.get(key);
    if (i === undefined) {
      i = nodes.length;
      nodes.push([e.node, e.opType]);
      nodeIndex.set(key, i);
    }
    calls.push([e.batch, i, e.durUs]);
  }
  const rawKernelMs = [...byType.values()].reduce((a, t) => a + t.us, 0) / 1000 / n;
  const notes = [...(capture.notes ?? [])];
  const scale = rawKernelMs > engineMs && rawKernelMs > 0 ? engineMs / rawKernelMs : 1;
  if (scale < 1) notes.push(`kernel times summed to ${rawKernelMs.toFixed(3)} ms per batch, above the engine time ${engineMs.toFixed(3)} ms: scaled by ${scale.toFixed(3)} to fit`);
  const unclassified = new Set<string>();
  const ops: OpTypeTime[] = [...byType].map(([opType, t]) => {
    const { opClass, known } = opClassOf(opType);
    if (!known) unclassified.add(opType);
    const msPerBatch = (t.us / 1000 / n) * scale;
    return { opType, opClass, callsPerBatch: t.calls / n, msPerBatch, share: engineMs > 0 ? msPerBatch / engineMs : 0 };
  });
  ops.sort((a, b) => b.msPerBatch - a.msPerBatch || a.opType.localeCompare(b.opType));
  const kernelMs = Math.min(engineMs, rawKernelMs * scale);
  return {
    source: capture.source,
    batches: n,
    items: batches.reduce((a, b) => a + b.items, 0),
    engineMsPerBatch: engineMs,
    kernelMsPerBatch: kernelMs,
    outsideMsPerBatch: Math.max(0, engineMs - kernelMs),
    ops,
    unclassified: [...unclassified].sort(),
    ...(notes.length > 0 ? { notes } : {}),
    calls,
    nodes,
  };
}

/** Share of the engine time outside the kernels (1 when unattributed). */
export function outsideShare(p: CellProfile): number {
  return p.engineMsPerBatch > 0 ? p.outsideMsPerBatch / p.engineMsPerBatch : 1;
}

/** Time per class, in OP_CLASSES order, classes with no op left out. */
export function classTimes(p: CellProfile): { readonly opClass: OpClass; readonly msPerBatch: number; readonly share: number }[] {
  const sums = new Map<OpClass, number>();
  for (const op of p.ops) sums.set(op.opClass, (sums.get(op.opClass) ?? 0) + op.msPerBatch);
  return OP_CLASSES.filter((c) => sums.has(c)).map((opClass) => {
    const ms = sums.get(opClass) as number;
    return { opClass, msPerBatch: ms, share: p.engineMsPerBatch > 0 ? ms / p.engineMsPerBatch : 0 };
  });
}

function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}
