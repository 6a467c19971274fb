/**
 * `run --profile`'s instruments on the tfjs engines, used after the timed
 * rounds on the same opened session:
 *
 * - the translator's rows: the wall time of each ONNX node, so op types are
 *   ONNX's. On the cpu, wasm and tensorflow backends a tfjs op returns once
 *   computed, so the node's wall is its compute (`per-node wall (synced)`);
 *   on webgl each node's first output is read back (`dataSync`) before the
 *   clock stops; on webgpu a synchronous read-back is not available, so the
 *   time is the host issuing the node's kernels (`host dispatch only`);
 * - GraphModel and SavedModel rows: `tf.profile`'s kernels, whose
 *   `kernelTimeMs` tfjs times per kernel, mapped to ONNX op types by the
 *   frozen table in core (`TF_KERNEL_OPS`).
 */
import type { Tensor } from '@tensorflow/tfjs-core';
import type { OpProfiler, EngineSession } from '../../src/core/engine-session.js';
import type { OnnxNode } from '../../src/core/onnx/onnx-decode.js';
import { PROFILE_SOURCES, type NodeEvent, type ProfileCapture } from '../../src/core/op-profile.js';
import { onnxOpOfKernel } from '../../src/core/op-taxonomy.js';
import type { TfjsGraphExecutor } from './graph-executor.js';
// Types only: op-values.ts imports @tensorflow/tfjs-core, which the tfjs engine module must not load before probe or open (tfjs-lazy-import test).
import type { Value } from './op-values.js';
import type { Tf } from './tfjs-backend.js';

/** Events of the last `n` calls, renumbered from 0. */
function lastCalls(events: readonly NodeEvent[], calls: number, n: number): NodeEvent[] {
  const first = calls - n;
  return events.filter((e) => e.batch >= first).map((e) => ({ ...e, batch: e.batch - first }));
}

/** What the translator's per-node clock measures on `backend`. */
export function translatorSource(backend: string): string {
  return backend === 'webgpu' ? PROFILE_SOURCES.hostDispatch : PROFILE_SOURCES.perNodeWall;
}

/** The translator's instrument: each step of `executor` timed on the host, synced where the backend runs apart from it. */
export function translatorProfiler(executor: TfjsGraphExecutor, run: EngineSession['run'], backend: string): OpProfiler {
  const events: NodeEvent[] = [];
  let call = -1;
  const sync = backend === 'webgl';
  const wrap = (node: OnnxNode, step: () => Value[]): Value[] => {
    const start = performance.now();
    const outs = step();
    if (sync) {
      const first = outs.find((v): v is Tensor => v !== undefined && (v as { kind?: unknown }).kind !== 'host');
      first?.dataSync();
    }
    const end = performance.now();
    events.push({ batch: call, node: node.name, opType: node.opType, startUs: start * 1000, durUs: (end - start) * 1000 });
    return outs;
  };
  return {
    session: {
      run: async (inputs) => {
        call++;
        executor.stepWrapper = wrap;
        try {
          return await run(inputs);
        } finally {
          executor.stepWrapper = null;
        }
      },
    },
    needsWarmPass: false,
    finish: async (n): Promise<ProfileCapture> => ({ source: translatorSource(backend), events: lastCalls(events, call + 1, n) }),
    dispose: async () => {
      executor.stepWrapper = null;
    },
  };
}

/** One kernel as `tf.profile` lists it (tfjs-core KernelInfo). */
interface KernelInfo {
  readonly name: string;
  readonly kernelTimeMs: number | { readonly error: string };
}

/** Name suffix of a custom-gradient op's scope in tf.profile's list; it encloses kernels listed apart. */
const OP_SCOPE = '__op';

/** Receives how the native session's executor call is wrapped (null: unwrapped). */
export type ExecuteWrapper = (<T>(execute: () => T) => Promise<T>) | null;

/**
 * GraphModel and SavedModel rows: each call's executor run inside
 * `tf.profile`, its kernels kept with their ONNX op type. A kernel whose
 * time tfjs could not read (`{error}`) is left out and named in a note;
 * none at all makes the row unattributed, saying why.
 */
export function tfProfileProfiler(tf: Tf, setWrapper: (wrapper: ExecuteWrapper) => void, run: EngineSession['run']): OpProfiler {
  const events: NodeEvent[] = [];
  const errors = new Set<string>();
  let call = -1;
  const wrapper = async <T>(execute: () => T): Promise<T> => {
    let result: T | undefined;
    const info = await tf.profile(() => {
      result = execute();
      return [] as Tensor[];
    });
    for (const k of info.kernels as unknown as KernelInfo[]) {
      // `<op>__op` is the scope of an op with a custom gradient (fusedMatMul__op): it encloses the kernels listed with it, so only they count.
      if (k.name.endsWith(OP_SCOPE)) continue;
      if (typeof k.kernelTimeMs !== 'number') {
        errors.add(k.kernelTimeMs.error);
        continue;
      }
      events.push({ batch: call, node: k.name, opType: onnxOpOfKernel(k.name), startUs: null, durUs: k.kernelTimeMs * 1000 });
    }
    return result as T;
  };
  return {
    session: {
      run: async (inputs) => {
        call++;
        setWrapper(wrapper);
        try {
          return await run(inputs);
        } finally {
          setWrapper(null);
        }
      },
    },
    needsWarmPass: false,
    async finish(n) {
      const kept = lastCalls(events, call + 1, n);
      const notes = [...errors].map((e) => `tf.profile gave no kernel time: ${e}`);
      if (kept.length === 0) {
        return { source: PROFILE_SOURCES.tfProfile, events: [], unattributed: errors.size > 0 ? notes.join('; ') : 'tf.profile saw no tfjs kernel (a SavedModel runs as one TensorFlow session call)' };
      }
      return { source: PROFILE_SOURCES.tfProfile, events: kept, ...(notes.length > 0 ? { notes } : {}) };
    },
    dispose: async () => setWrapper(null),
  };
}
