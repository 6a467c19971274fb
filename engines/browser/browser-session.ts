/**
 * An EngineSession whose model lives in a browser page. Each batch is sent
 * to the page once and kept there: `prepareCall` (before any clock starts)
 * only queues it, and the first call after that sends every queued batch in
 * one message, so a timed pass's inputs cross once, not one message per
 * batch queued behind the runs. A call then only names the batch, the page times
 * the engine call with its own performance.now() and reads the outputs back
 * to the CPU before stopping the clock. The scenario measures this session
 * exactly as a Node one: same warm pass, passes, stop rule and rounds.
 */
import { createHash } from 'node:crypto';
import type { BrowserReadback, EngineSession, OpenPhases, PreparedCall, ResidentMemoryProbe, SessionDescription } from '../../src/core/engine-session.js';
import { textsOf } from '../../src/core/raw-texts.js';
import type { HostTensor, TensorMap } from '../../src/core/tensor.js';
import type { PageHost } from './page-host.js';
import type { PageRunResult, WireBatch, WireMap } from './page/protocol.js';

export function toWire(inputs: TensorMap): WireBatch {
  const tensors: Record<string, WireMap[string]> = {};
  for (const [name, t] of Object.entries(inputs)) {
    tensors[name] = { dtype: t.dtype, dims: [...t.dims], b64: Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength).toString('base64') };
  }
  return { tensors, texts: textsOf(inputs) ?? null };
}

export function fromWire(map: WireMap): TensorMap {
  const out: TensorMap = {};
  for (const [name, t] of Object.entries(map)) {
    const bytes = Buffer.from(t.b64, 'base64');
    // Copied into a fresh buffer: a Buffer's pool offset may not be aligned for 4- or 8-byte views.
    const buf = new Uint8Array(bytes).buffer;
    const data = t.dtype === 'float32' ? new Float32Array(buf) : t.dtype === 'int64' ? new BigInt64Array(buf) : t.dtype === 'int32' ? new Int32Array(buf) : new Uint8Array(buf);
    out[name] = { dtype: t.dtype, dims: [...t.dims], data } as HostTensor;
  }
  return out;
}

/** Identity of a batch's contents, so a batch met again in a later pass is not sent again. */
function batchKey(batch: WireBatch): string {
  const h = createHash('sha1');
  for (const [name, t] of Object.entries(batch.tensors)) h.update(`${name}|${t.dtype}|${t.dims.join(',')}|${t.b64}\n`);
  if (batch.texts) h.update(JSON.stringify(batch.texts));
  return h.digest('hex');
}

export class BrowserSession implements EngineSession {
  private readonly uploaded = new Map<string, number>();
  private queued: [number, WireBatch][] = [];
  private nextId = 0;
  private last: PageRunResult | null = null;
  private peakHeap: number | null = null;
  private readonly timing = { calls: 0, groupedCalls: 0, largestGroup: 1 };
  readonly memory?: () => { numTensors: number; numBytes: number };
  readonly residentMemory?: ResidentMemoryProbe;

  constructor(
    private readonly host: PageHost,
    private readonly description: Omit<SessionDescription, 'browser'> & { readonly browser: BrowserReadback },
    keepsEngineMemory: boolean,
  ) {
    // tf.memory() as of the last call: the page's own account of live tensors and bytes.
    if (keepsEngineMemory) this.memory = () => this.last?.engineMemory ?? { numTensors: 0, numBytes: 0 };
    // The model runs in Chromium's renderer: its RSS, not this driver's, is the cell's.
    if (host.residentMemory) this.residentMemory = host.residentMemory;
  }

  prepareCall(inputs: TensorMap): PreparedCall {
    const wire = toWire(inputs);
    const key = batchKey(wire);
    let id = this.uploaded.get(key);
    if (id === undefined) {
      id = this.nextId++;
      this.queued.push([id, wire]);
      this.uploaded.set(key, id);
    }
    const batchId = id;
    let result: PageRunResult | null = null;
    return {
      run: async () => {
        await this.flush();
        result = await this.host.call('run', batchId);
        this.last = result;
        this.timing.calls++;
        // Pages built before grouping answer without `group`.
        const group = result.group ?? 1;
        if (group > 1) this.timing.groupedCalls++;
        this.timing.largestGroup = Math.max(this.timing.largestGroup, group);
        if (result.heapBytes !== null) this.peakHeap = Math.max(this.peakHeap ?? 0, result.heapBytes);
      },
      outputs: () => (result ? fromWire(result.outputs) : {}),
      elapsedMs: () => result?.ms ?? 0,
    };
  }

  /** Sends every queued batch in one call. */
  private async flush(): Promise<void> {
    if (this.queued.length === 0) return;
    const items = this.queued;
    this.queued = [];
    await this.host.call('upload', items);
  }

  async run(inputs: TensorMap): Promise<TensorMap> {
    const call = this.prepareCall(inputs);
    await call.run();
    return call.outputs();
  }

  innerForwardMs(): number | null {
    return this.last?.forwardMs ?? null;
  }

  /** The page's cold start in the parts every engine reports: page load and runtime start as the import, the session build as the create. */
  openPhases(): OpenPhases {
    const c = this.description.browser.coldStart;
    return { importMs: c.pageLoadMs + (c.runtimeInitMs ?? 0), placementProbeMs: null, createMs: c.sessionBuildMs };
  }

  describe(): SessionDescription {
    const b = this.description.browser;
    const t = this.timing;
    const step = b.timerResolutionMs;
    const grouped =
      t.groupedCalls > 0
        ? [`${t.groupedCalls} of ${t.calls} calls were shorter than 20 steps of the page's clock (${step ?? '?'} ms): each was timed as a group of up to ${t.largestGroup} calls of the same batch, divided`]
        : [];
    return {
      ...this.description,
      notes: [...(this.description.notes ?? []), ...grouped],
      browser: { ...b, timing: { ...t }, memory: { ...b.memory, peakJsHeapBytes: this.peakHeap } },
    };
  }

  async dispose(): Promise<void> {
    this.uploaded.clear();
    await this.host.call('dispose');
  }
}
