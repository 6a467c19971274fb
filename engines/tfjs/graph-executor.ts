import * as tf from '@tensorflow/tfjs-core';
import { CellSkip } from '../../src/core/errors.js';
import { hostTensor, type HostTensor, type TensorMap } from '../../src/core/tensor.js';
import type { OnnxDType, OnnxModel, OnnxNode, OnnxValueInfo } from '../../src/core/onnx/onnx-decode.js';
import { NodeAttributes, topologicalOrder } from '../../src/core/onnx/onnx-graph.js';
import { FUSED_DOMAIN, WEIGHT_3D_SUFFIX, fuseGraph } from './graph-fusion.js';
import { opHandlerFor } from './op-table.js';
import { prepareQuantizedNodes, quantizedOpNotes } from './quantized-weights.js';
import { dimsKey, foldableNodes, foldedPlan, fullPlan, runStep, type RunPlan, type Step } from './run-plan.js';
import {
  dimsOf,
  dtypeOf,
  int64ToInt32,
  mirrorOnHost,
  isHost,
  tfDTypeFor,
  toTensor,
  valueFromOnnxTensor,
  type HostValue,
  type OpHandler,
  type Value,
} from './op-values.js';

/** Input-dims signatures whose folded plans are kept; batches padded to their longest text bring a few dozen. */
const MAX_PLANS = 128;

function opLabel(node: OnnxNode): string {
  return node.domain && node.domain !== 'ai.onnx' ? `${node.domain}.${node.opType}` : node.opType;
}

/**
 * An ONNX graph translated to tfjs ops. Open-time work (op validation,
 * weights to tensors, Constant nodes, value lifetimes) is done once here so
 * `run` only evaluates nodes. Shape-only subgraphs (Shape → Gather →
 * Unsqueeze → Concat → Reshape and the like) are evaluated once per set of
 * input dims and then folded away: later runs with those dims skip them.
 */
export class TfjsGraphExecutor {
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
  /** How the graph's quantized ops are computed, for the result row (empty without them). */
  readonly quantizedNotes: readonly string[];
  private readonly constants = new Map<string, Value>();
  /** Tensors owned by the executor across runs; never released by a run. */
  private readonly constantTensors = new Set<tf.Tensor>();
  /** Scalars handlers asked for by value (OpContext.scalar); their tensors are in constantTensors. */
  private readonly scalars = new Map<number, tf.Tensor>();
  private readonly steps: Step[] = [];
  private readonly graphOutputs: ReadonlySet<string>;
  /** The unfolded plan, run once per new input-dims signature to record the foldable values. */
  private readonly recordingPlan: RunPlan;
  /** Folded plans by input-dims signature, least recently used first. */
  private readonly plans = new Map<string, RunPlan>();
  private lastPlan: RunPlan | undefined;
  private disposed = false;
  /** `run --profile` only: wraps each step to time it (tfjs-profile.ts); null in every timed run. */
  stepWrapper: ((node: OnnxNode, step: () => Value[]) => Value[]) | null = null;

  /** Throws CellSkip for an op the translator lacks before any tensor is made, so a skip costs nothing. */
  constructor(model: OnnxModel) {
    this.inputs = model.inputs;
    this.outputs = model.outputs;
    this.quantizedNotes = quantizedOpNotes(model.nodes);
    for (const node of model.nodes) {
      if (!opHandlerFor(node.opType, node.domain)) throw new CellSkip(`unsupported ONNX op ${opLabel(node)} (node ${node.name})`);
    }
    for (const v of [...model.inputs, ...model.outputs]) {
      if (!tfDTypeFor(v.dtype)) throw new CellSkip(`graph ${model.inputs.includes(v) ? 'input' : 'output'} '${v.name}' has dtype ${v.dtype}, which tfjs cannot hold`);
    }
    const order = topologicalOrder(model);
    this.graphOutputs = new Set(model.outputs.map((o) => o.name));
    try {
      // Embedding tables keep their host copy so Gather on token ids can copy rows in JS (see mirrorOnHost).
      const gathered = new Set(model.nodes.filter((n) => n.opType === 'Gather').map((n) => n.inputs[0]));
      for (const [name, t] of model.initializers) {
        const value = valueFromOnnxTensor(t);
        if (gathered.has(name) && !isHost(value) && t.data instanceof Float32Array) mirrorOnHost(value, t.data);
        this.addConstant(name, value);
      }
      const runtime = order.filter((node) => {
        if (node.opType !== 'Constant') return true;
        const handler = opHandlerFor(node.opType, node.domain) as OpHandler;
        const [value] = handler([], new NodeAttributes(node.attributes), { node, opset: model.opset });
        if (!value || !node.outputs[0]) throw new Error(`ONNX node ${node.name} (Constant) produced no value`);
        this.addConstant(node.outputs[0], value);
        return false;
      });
      const constantTypes = new Map<string, OnnxDType>([...model.initializers].map(([name, t]) => [name, t.dtype]));
      for (const node of order) {
        const t = node.opType === 'Constant' ? node.attributes.get('value') : undefined;
        if (t?.type === 'tensor' && node.outputs[0]) constantTypes.set(node.outputs[0], t.value.dtype);
      }
      const prepared = prepareQuantizedNodes(runtime, {
        opset: model.opset,
        constant: (name) => this.constants.get(name),
        constantType: (name) => constantTypes.get(name),
        addConstant: (name, value) => this.addConstant(name, value),
        graphOutputs: this.graphOutputs,
      });
      const fused = fuseGraph(prepared, {
        constantDims: (name) => {
          const v = this.constants.get(name);
          return v !== undefined && dtypeOf(v) === 'float32' ? dimsOf(v) : undefined;
        },
        constantValues: (name) => {
          const v = this.constants.get(name);
          return v !== undefined && isHost(v) ? v.data : undefined;
        },
        graphOutputs: this.graphOutputs,
      });
      this.addWeightViews(fused);
      this.dropUnreadConstants(fused);
      const foldable = foldableNodes(fused, model.inputs.map((i) => i.name), this.constants.keys());
      for (const node of fused) {
        this.steps.push({
          node,
          handler: opHandlerFor(node.opType, node.domain) as OpHandler,
          attrs: new NodeAttributes(node.attributes),
          ctx: { node, opset: model.opset, scalar: (value) => this.scalar(value) },
          foldable: foldable.has(node),
        });
      }
    } catch (err) {
      this.dispose();
      throw err;
    }
    this.recordingPlan = fullPlan(this.steps, this.graphOutputs, (n) => this.constants.has(n));
  }

  /**
   * Names of the nodes the last run executed, in order. Shape-only nodes
   * folded for that run's input dims are absent; for tests and `inspect`.
   */
  lastRunNodes(): string[] {
    return (this.lastPlan?.steps ?? []).map((s) => s.node.name);
  }

  /**
   * Gives each FusedMatMul over a 2-D constant weight a [1, K, N] view of it
   * (same data, no copy), so the handler can call the matmul kernel directly;
   * the node is switched to it in place.
   */
  private addWeightViews(nodes: OnnxNode[]): void {
    nodes.forEach((node, i) => {
      const w = node.inputs[1];
      const value = w !== undefined ? this.constants.get(w) : undefined;
      if (node.domain !== FUSED_DOMAIN || node.opType !== 'FusedMatMul' || !value || isHost(value) || value.rank !== 2) return;
      // A Gemm with transB stores its weight transposed once here, so the kernel never transposes.
      const transposed = node.attributes.get('transB')?.value === 1;
      const name = `${w}${transposed ? '^T' : ''}${WEIGHT_3D_SUFFIX}`;
      if (!this.constants.has(name)) {
        const kn = transposed ? tf.transpose(value) : value;
        this.addConstant(name, tf.reshape(kn, [1, ...kn.shape]));
        if (kn !== value) kn.dispose();
      }
      const attributes = new Map(node.attributes);
      attributes.set('weight3d', { type: 'int', value: 1 });
      nodes[i] = { ...node, inputs: node.inputs.map((n, k) => (k === 1 ? name : n)), attributes };
    });
  }

  /**
   * Frees constants no node reads any more: weights the quantized-op pass
   * replaced (an 8-bit weight held as int32 next to its float32 chunks or
   * its dequantized copy) and 2-D weights now read through their [1, K, N]
   * view (a reshape shares the data, so that data stays). Without this a
   * q8 graph would hold more memory than its fp32 original.
   */
  private dropUnreadConstants(nodes: readonly OnnxNode[]): void {
    const read = new Set<string>(this.graphOutputs);
    for (const node of nodes) for (const n of node.inputs) read.add(n);
    for (const [name, value] of this.constants) {
      if (read.has(name)) continue;
      const t = isHost(value) ? value.cached : value;
      if (t && this.constantTensors.delete(t)) t.dispose();
      this.constants.delete(name);
    }
  }

  /** A kept float32 scalar per value, made on first use and owned like a constant (OpContext.scalar). */
  private scalar(value: number): tf.Tensor {
    let t = this.scalars.get(value);
    if (t === undefined) {
      t = tf.keep(tf.scalar(value, 'float32'));
      this.scalars.set(value, t);
      this.constantTensors.add(t);
    }
    return t;
  }

  /** Registers a constant; host constants also get their tensor form now, unless it would not fit int32 (then it is made on demand and fails there, naming the tensor). */
  private addConstant(name: string, value: Value): void {
    if (isHost(value)) {
      value.name = name;
      if (!value.cached) {
        try {
          value.cached = toTensor(value);
          this.constantTensors.add(value.cached);
        } catch (err) {
          if (!(err instanceof RangeError)) throw err;
        }
      }
    } else {
      this.constantTensors.add(value);
    }
    this.constants.set(name, value);
  }

  /** Evaluates the graph; resolves once every output is a host array and all intermediates are freed. */
  async run(feeds: TensorMap): Promise<TensorMap> {
    if (this.disposed) throw new Error('tfjs session was disposed');
    const key = dimsKey(this.inputs.map((info) => feeds[info.name]?.dims ?? []));
    const cached = this.plans.get(key);
    if (cached) {
      // Re-inserted so the map stays ordered least recently used first.
      this.plans.delete(key);
      this.plans.set(key, cached);
    }
    const plan = cached ?? this.recordingPlan;
    const recorded = cached ? null : new Map<string, Value>();
    this.lastPlan = plan;
    const owned = (t: tf.Tensor): boolean => this.constantTensors.has(t) || plan.tensors.has(t);
    const hostOutputs = new Map<string, HostValue>();
    const tensorOutputs = tf.tidy(() => {
      // Values made by this run; constants and folded values are looked up behind it rather than copied in.
      const env = new Map<string, Value>();
      const constants = this.constants;
      const folded = plan.folded;
      const lookup = (n: string): Value | undefined => env.get(n) ?? folded.get(n) ?? constants.get(n);
      const refs = new Map<tf.Tensor, number>();
      const hold = (name: string, v: Value): void => {
        env.set(name, v);
        if (isHost(v)) v.name ??= name;
        else if (!owned(v)) refs.set(v, (refs.get(v) ?? 0) + 1);
      };
      const release = (name: string): void => {
        const v = env.get(name);
        env.delete(name);
        if (v === undefined || isHost(v) || owned(v)) return;
        const left = (refs.get(v) ?? 1) - 1;
        if (left > 0) refs.set(v, left);
        else { refs.delete(v); v.dispose(); }
      };
      for (const info of this.inputs) hold(info.name, feedToTensor(info, feeds[info.name]));
      plan.steps.forEach((step, index) => {
        const outs = this.stepWrapper ? this.stepWrapper(step.node, () => runStepScoped(step, lookup)) : runStepScoped(step, lookup);
        step.node.outputs.forEach((n, i) => {
          const v = outs[i];
          if (!n) return;
          if (v === undefined) throw new Error(`ONNX node ${step.node.name} (${step.node.opType}): output ${i} ('${n}') is not produced by the tfjs translation`);
          hold(n, v);
          if (recorded && step.foldable) recorded.set(n, v);
        });
        for (const n of plan.release[index] ?? []) release(n);
      });
      const kept: tf.Tensor[] = [];
      for (const info of this.outputs) {
        const v = lookup(info.name);
        if (v === undefined) throw new Error(`graph output '${info.name}' was not computed`);
        if (isHost(v)) hostOutputs.set(info.name, v);
        // A constant or an already-returned tensor is cloned, so disposing outputs after reading never frees a shared tensor.
        else kept.push(owned(v) || kept.includes(v) ? tf.clone(v) : v);
      }
      return kept;
    });
    const result: TensorMap = {};
    let k = 0;
    try {
      for (const info of this.outputs) {
        const host = hostOutputs.get(info.name);
        if (host) {
          result[info.name] = toHostTensor(info.dtype, host.dims, host.data);
          continue;
        }
        const t = tensorOutputs[k++] as tf.Tensor;
        result[info.name] = toHostTensor(info.dtype, t.shape, (await t.data()) as ArrayLike<number>);
      }
    } finally {
      for (const t of tensorOutputs) t.dispose();
    }
    if (recorded) this.remember(key, recorded);
    return result;
  }

  /** Caches the folded plan for one input-dims signature, evicting the least recently used past MAX_PLANS. */
  private remember(key: string, recorded: ReadonlyMap<string, Value>): void {
    if (this.disposed) return;
    this.plans.set(key, foldedPlan(this.steps, recorded, this.graphOutputs, (n) => this.constants.has(n)));
    if (this.plans.size > MAX_PLANS) {
      const [oldest, old] = this.plans.entries().next().value as [string, RunPlan];
      this.plans.delete(oldest);
      for (const t of old.tensors) t.dispose();
    }
  }

  /** Frees weights and constants; safe to call twice. */
  dispose(): void {
    this.disposed = true;
    for (const plan of this.plans.values()) for (const t of plan.tensors) t.dispose();
    this.plans.clear();
    for (const t of this.constantTensors) t.dispose();
    this.constantTensors.clear();
    this.scalars.clear();
    this.constants.clear();
  }
}

/**
 * runStep in its own tf.tidy scope: the temporaries a handler makes (the
 * ~8 tensors of a LayerNorm or the 5 of a GELU on backends without the JS
 * kernels, a Where's scalars) are freed when the step returns rather than
 * when the whole forward does. Without it every temporary of every layer
 * was live at the end of a forward, so peak memory grew with depth × batch
 * (tfjs-webgpu on bert-base held 7.2 GiB of GPU memory at batch 32).
 * Outputs are kept; host values hold no tensors a step makes.
 */
function runStepScoped(step: Step, lookup: (name: string) => Value | undefined): Value[] {
  let outs: Value[] = [];
  tf.tidy(() => {
    outs = runStep(step, lookup);
    return outs.filter((v): v is tf.Tensor => v !== undefined && !isHost(v));
  });
  return outs;
}

/** Feeds become tensors here, inside the run, so their conversion (int64 → int32 with range check) is charged to this engine. */
export function feedToTensor(info: OnnxValueInfo, feed: HostTensor | undefined): tf.Tensor {
  if (!feed) throw new Error(`missing input '${info.name}'`);
  if (tfDTypeFor(info.dtype) !== (feed.dtype === 'int64' ? 'int32' : feed.dtype)) {
    throw new Error(`input '${info.name}' is ${feed.dtype}, the graph expects ${info.dtype}`);
  }
  if (info.dims) {
    if (info.dims.length !== feed.dims.length) throw new Error(`input '${info.name}' has rank ${feed.dims.length}, the graph expects ${info.dims.length}`);
    info.dims.forEach((d, i) => {
      if (typeof d === 'number' && d !== feed.dims[i]) throw new Error(`input '${info.name}' has dims [${feed.dims.join(',')}], the graph expects ${d} at axis ${i}`);
    });
  }
  const dims = [...feed.dims];
  switch (feed.dtype) {
    case 'int64': case 'int32': {
      const data = feed.dtype === 'int64' ? int64ToInt32(feed.data as BigInt64Array, info.name) : (feed.data as Int32Array);
      return mirrorOnHost(tf.tensor(data, dims, 'int32'), data);
    }
    case 'bool': return tf.tensor(feed.data as Uint8Array, dims, 'bool');
    case 'float32': return tf.tensor(feed.data as Float32Array, dims, 'float32');
  }
}

/** Output data in the graph's declared dtype (int64 comes back as BigInt64Array even though tfjs computed int32). */
function toHostTensor(dtype: OnnxDType, dims: readonly number[], data: ArrayLike<number>): HostTensor {
  switch (tfDTypeFor(dtype)) {
    case 'int32':
      if (dtype === 'int64' || dtype === 'uint64') return hostTensor('int64', dims, BigInt64Array.from(Array.from(data), (v) => BigInt(v)));
      return hostTensor('int32', dims, data instanceof Int32Array ? data : Int32Array.from(data));
    case 'bool':
      return hostTensor('bool', dims, data instanceof Uint8Array ? data : Uint8Array.from(data));
    default:
      return hostTensor('float32', dims, data instanceof Float32Array ? data : Float32Array.from(data));
  }
}
