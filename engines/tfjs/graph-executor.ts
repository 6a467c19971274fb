import * as tf from '@tensorflow/tfjs-core';
import { CellSkip } from '../../src/errors.js';
import { hostTensor, type HostTensor, type TensorMap } from '../../src/tensor.js';
import type { OnnxDType, OnnxModel, OnnxNode, OnnxValueInfo } from './onnx-model.js';
import { opHandlerFor } from './op-table.js';
import {
  NodeAttributes,
  int64ToInt32,
  mirrorOnHost,
  isHost,
  tfDTypeFor,
  toTensor,
  valueFromOnnxTensor,
  type HostValue,
  type OpContext,
  type OpHandler,
  type Value,
} from './op-values.js';

/** One node, resolved once at load so a run does no lookups beyond Map gets. */
interface Step {
  readonly node: OnnxNode;
  readonly handler: OpHandler;
  readonly attrs: NodeAttributes;
  readonly ctx: OpContext;
  /** Values whose last reader is this node (plus outputs nobody reads): released right after it. */
  readonly release: readonly string[];
}

function opLabel(node: OnnxNode): string {
  return node.domain && node.domain !== 'ai.onnx' ? `${node.domain}.${node.opType}` : node.opType;
}

/** Orders nodes so each runs after its producers; ONNX requires sorted graphs, but tolerating unsorted ones costs nothing. */
function topologicalOrder(model: OnnxModel): OnnxNode[] {
  const available = new Set<string>(['', ...model.inputs.map((i) => i.name), ...model.initializers.keys()]);
  const pending = [...model.nodes];
  const order: OnnxNode[] = [];
  while (pending.length > 0) {
    const before = pending.length;
    for (let i = 0; i < pending.length; ) {
      const node = pending[i] as OnnxNode;
      if (node.inputs.every((n) => available.has(n))) {
        order.push(node);
        for (const o of node.outputs) available.add(o);
        pending.splice(i, 1);
      } else {
        i++;
      }
    }
    if (pending.length === before) {
      const node = pending[0] as OnnxNode;
      const missing = node.inputs.find((n) => !available.has(n)) ?? '?';
      throw new Error(`ONNX node ${node.name} (${node.opType}) reads '${missing}', which no input, initializer or node provides`);
    }
  }
  return order;
}

/**
 * An ONNX graph translated to tfjs ops. Load-time work (op validation,
 * weights to tensors, Constant nodes, value lifetimes) is done once here so
 * `run` only evaluates nodes.
 */
export class TfjsGraphExecutor {
  readonly inputs: readonly OnnxValueInfo[];
  readonly outputs: readonly OnnxValueInfo[];
  private readonly constants = new Map<string, Value>();
  /** Tensors owned by the executor across runs; never released by a run. */
  private readonly constantTensors = new Set<tf.Tensor>();
  private readonly steps: Step[] = [];
  private disposed = false;

  /** Throws CellSkip for an op the translator lacks before any tensor is made, so a skip costs nothing. */
  constructor(model: OnnxModel) {
    this.inputs = model.inputs;
    this.outputs = model.outputs;
    for (const node of model.nodes) {
      if (!opHandlerFor(node.opType, node.domain)) throw new CellSkip(`unsupported ONNX op ${opLabel(node)} (node ${node.name})`);
    }
    for (const v of [...model.inputs, ...model.outputs]) {
      if (!tfDTypeFor(v.dtype)) throw new CellSkip(`graph ${model.inputs.includes(v) ? 'input' : 'output'} '${v.name}' has dtype ${v.dtype}, which tfjs cannot hold`);
    }
    const order = topologicalOrder(model);
    try {
      // Embedding tables keep their host copy so Gather on token ids can copy rows in JS (see mirrorOnHost).
      const gathered = new Set(model.nodes.filter((n) => n.opType === 'Gather').map((n) => n.inputs[0]));
      for (const [name, t] of model.initializers) {
        const value = valueFromOnnxTensor(t);
        if (gathered.has(name) && !isHost(value) && t.data instanceof Float32Array) mirrorOnHost(value, t.data);
        this.addConstant(name, value);
      }
      const lastUse = new Map<string, number>();
      const graphOutputs = new Set(model.outputs.map((o) => o.name));
      const runtime = order.filter((node) => {
        if (node.opType !== 'Constant') return true;
        const handler = opHandlerFor(node.opType, node.domain) as OpHandler;
        const [value] = handler([], new NodeAttributes(node.attributes), { node, opset: model.opset });
        if (!value || !node.outputs[0]) throw new Error(`ONNX node ${node.name} (Constant) produced no value`);
        this.addConstant(node.outputs[0], value);
        return false;
      });
      runtime.forEach((node, i) => node.inputs.forEach((n) => { if (n) lastUse.set(n, i); }));
      runtime.forEach((node, i) => {
        const release = new Set<string>();
        for (const n of node.inputs) if (n && lastUse.get(n) === i && !graphOutputs.has(n) && !this.constants.has(n)) release.add(n);
        for (const n of node.outputs) if (n && !lastUse.has(n) && !graphOutputs.has(n)) release.add(n);
        this.steps.push({
          node,
          handler: opHandlerFor(node.opType, node.domain) as OpHandler,
          attrs: new NodeAttributes(node.attributes),
          ctx: { node, opset: model.opset },
          release: [...release],
        });
      });
    } catch (err) {
      this.dispose();
      throw err;
    }
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
    const hostOutputs = new Map<string, HostValue>();
    const tensorOutputs = tf.tidy(() => {
      const env = new Map<string, Value>(this.constants);
      const refs = new Map<tf.Tensor, number>();
      const hold = (name: string, v: Value): void => {
        env.set(name, v);
        if (isHost(v)) v.name ??= name;
        else if (!this.constantTensors.has(v)) refs.set(v, (refs.get(v) ?? 0) + 1);
      };
      const release = (name: string): void => {
        const v = env.get(name);
        env.delete(name);
        if (v === undefined || isHost(v) || this.constantTensors.has(v)) return;
        const left = (refs.get(v) ?? 1) - 1;
        if (left > 0) refs.set(v, left);
        else { refs.delete(v); v.dispose(); }
      };
      for (const info of this.inputs) hold(info.name, feedToTensor(info, feeds[info.name]));
      for (const step of this.steps) {
        const ins = step.node.inputs.map((n) => {
          if (!n) return undefined;
          const v = env.get(n);
          if (v === undefined) throw new Error(`ONNX node ${step.node.name}: value '${n}' is not available`);
          return v;
        });
        let outs: Value[];
        try {
          outs = step.handler(ins, step.attrs, step.ctx);
        } catch (err) {
          const msg = err instanceof Error ? err.message : String(err);
          throw new Error(`ONNX node ${step.node.name} (${step.node.opType}): ${msg}`, { cause: err });
        }
        step.node.outputs.forEach((n, i) => {
          const v = outs[i];
          if (!n) return;
          if (v === undefined) throw new Error(`ONNX node ${step.node.name} (${step.node.opType}): output ${i} ('${n}') is not produced by the tfjs translation`);
          hold(n, v);
        });
        for (const n of step.release) release(n);
      }
      const kept: tf.Tensor[] = [];
      for (const info of this.outputs) {
        const v = env.get(info.name);
        if (v === undefined) throw new Error(`graph output '${info.name}' was not computed`);
        if (isHost(v)) hostOutputs.set(info.name, v);
        // A constant or an already-returned tensor is cloned, so disposing outputs after reading never frees a shared tensor.
        else kept.push(this.constantTensors.has(v) || kept.includes(v) ? tf.clone(v) : v);
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
    return result;
  }

  /** Frees weights and constants; safe to call twice. */
  dispose(): void {
    this.disposed = true;
    for (const t of this.constantTensors) t.dispose();
    this.constantTensors.clear();
    this.constants.clear();
  }
}

/** Feeds become tensors here, inside the run, so their conversion (int64 → int32 with range check) is charged to this engine. */
function feedToTensor(info: OnnxValueInfo, feed: HostTensor | undefined): tf.Tensor {
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
