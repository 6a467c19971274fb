import * as tf from '@tensorflow/tfjs-core';
import type { OnnxNode } from '../../src/core/onnx/onnx-decode.js';
import { isHost, toTensor, type HostValue, type OpContext, type OpHandler, type Value } from './op-values.js';
import { type NodeAttributes } from '../../src/core/onnx/onnx-graph.js';

/** One node, resolved once at open so a run does no lookups beyond Map gets. */
export interface Step {
  readonly node: OnnxNode;
  readonly handler: OpHandler;
  readonly attrs: NodeAttributes;
  readonly ctx: OpContext;
  /** True when the node's outputs depend only on constants and the graph inputs' dims (see foldableSteps). */
  readonly foldable: boolean;
}

/**
 * Runs one node on the values `lookup` finds and returns its outputs; a
 * missing input or a failing op is an error naming the node. One body for
 * inference (graph-executor.ts) and training (tfjs-trainer.ts), so both
 * read inputs and report failures alike.
 */
export function runStep(step: Pick<Step, 'node' | 'handler' | 'attrs' | 'ctx'>, lookup: (name: string) => Value | undefined): Value[] {
  const ins = step.node.inputs.map((n) => {
    if (!n) return undefined;
    const v = lookup(n);
    if (v === undefined) throw new Error(`ONNX node ${step.node.name}: value '${n}' is not available`);
    return v;
  });
  try {
    return step.handler(ins, step.attrs, step.ctx);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new Error(`ONNX node ${step.node.name} (${step.node.opType}): ${msg}`, { cause: err });
  }
}

/**
 * What a run executes for one set of input dims: the steps left after
 * shape-only nodes were folded to host constants, with the values each step
 * releases when it is done.
 */
export interface RunPlan {
  readonly steps: readonly Step[];
  /** release[i]: values whose last reader is steps[i] (plus outputs nobody reads). */
  readonly release: readonly (readonly string[])[];
  /** Folded values, by name, that kept steps or graph outputs read. */
  readonly folded: ReadonlyMap<string, HostValue>;
  /** Device copies of folded values, made once per plan; owned by the plan. */
  readonly tensors: ReadonlySet<tf.Tensor>;
}

/**
 * Inputs whose values (not just dims) decide an op's output dims. A Shape
 * downstream of such an input is only foldable when that input is itself
 * foldable; every other supported op's output dims follow from its input
 * dims and attributes. An op added to the translator whose output dims
 * depend on data must be listed here or in DATA_SHAPED.
 */
const SHAPE_INPUTS: Readonly<Record<string, readonly number[]>> = {
  Reshape: [1], Expand: [1], ConstantOfShape: [0], Range: [0, 1, 2], Slice: [1, 2, 3, 4], Tile: [1], Split: [1],
  Squeeze: [1], Unsqueeze: [1], TopK: [1], Pad: [1], OneHot: [1],
  ReduceMean: [1], ReduceSum: [1], ReduceMax: [1], ReduceMin: [1], ReduceProd: [1], ReduceSumSquare: [1], ReduceL2: [1], ReduceLogSumExp: [1],
};
/** Ops whose output dims depend on their input data whatever the inputs are. */
const DATA_SHAPED = new Set(['NonZero', 'Unique', 'Compress', 'NonMaxSuppression']);

/**
 * Marks the nodes whose outputs are a function of the graph inputs' dims
 * alone: Shape/Size of a tensor whose dims are fixed by the input dims, and
 * any node fed only by constants and such values. For a given set of input
 * dims their results never change, so they are evaluated once and reused.
 */
export function foldableNodes(order: readonly OnnxNode[], inputNames: readonly string[], constantNames: Iterable<string>): Set<OnnxNode> {
  const known = new Set<string>(constantNames);
  const staticDims = new Set<string>([...inputNames, ...known]);
  const foldable = new Set<OnnxNode>();
  for (const node of order) {
    const ins = node.inputs.filter((n) => n !== '');
    const folds = node.opType === 'Shape' || node.opType === 'Size'
      ? staticDims.has(ins[0] ?? '')
      : ins.length > 0 && ins.every((n) => known.has(n));
    if (folds) {
      foldable.add(node);
      for (const o of node.outputs) { known.add(o); staticDims.add(o); }
      continue;
    }
    const dimsFixed = !DATA_SHAPED.has(node.opType) &&
      ins.every((n) => staticDims.has(n)) &&
      (SHAPE_INPUTS[node.opType] ?? []).every((i) => !node.inputs[i] || known.has(node.inputs[i] as string));
    if (dimsFixed) for (const o of node.outputs) staticDims.add(o);
  }
  return foldable;
}

/** Release lists for `steps`: a value goes when its last reader is done, unless it is a graph output or never a tensor the run owns. */
function releaseLists(steps: readonly Step[], keep: (name: string) => boolean): string[][] {
  const lastUse = new Map<string, number>();
  steps.forEach((s, i) => s.node.inputs.forEach((n) => { if (n) lastUse.set(n, i); }));
  return steps.map((s, i) => {
    const release = new Set<string>();
    for (const n of s.node.inputs) if (n && lastUse.get(n) === i && !keep(n)) release.add(n);
    for (const n of s.node.outputs) if (n && !lastUse.has(n) && !keep(n)) release.add(n);
    return [...release];
  });
}

/** The plan with nothing folded: what a first run with new input dims executes (it also records the foldable values). */
export function fullPlan(steps: readonly Step[], graphOutputs: ReadonlySet<string>, isConstant: (name: string) => boolean): RunPlan {
  return { steps, release: releaseLists(steps, (n) => graphOutputs.has(n) || isConstant(n)), folded: new Map(), tensors: new Set() };
}

/**
 * The plan for input dims whose foldable values were recorded: folded steps
 * and steps nothing needs any more are dropped, and the recorded values are
 * injected like constants. A foldable step that produced a device tensor
 * (too large for the host) stays in the plan.
 */
export function foldedPlan(
  steps: readonly Step[],
  recorded: ReadonlyMap<string, Value>,
  graphOutputs: ReadonlySet<string>,
  isConstant: (name: string) => boolean,
): RunPlan {
  const folded = new Set(steps.filter((s) => s.foldable && s.node.outputs.every((o) => !o || (recorded.has(o) && isHost(recorded.get(o) as Value)))));
  const needed = new Set(graphOutputs);
  const kept: Step[] = [];
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i] as Step;
    if (folded.has(s) || !s.node.outputs.some((o) => needed.has(o))) continue;
    kept.unshift(s);
    for (const n of s.node.inputs) if (n) needed.add(n);
  }
  const values = new Map<string, HostValue>();
  const tensors = new Set<tf.Tensor>();
  for (const s of folded) {
    for (const o of s.node.outputs) {
      if (!o || !needed.has(o)) continue;
      const v = recorded.get(o) as HostValue;
      const copy: HostValue = { kind: 'host', dtype: v.dtype, dims: v.dims, data: v.data, name: o };
      if (kept.some((k) => k.node.inputs.includes(o))) {
        try {
          copy.cached = toTensor(copy);
          tensors.add(copy.cached);
        } catch (err) {
          // An int64 value outside int32 (Slice's INT64_MAX end) stays host-only; an op needing it as a tensor fails there, naming it.
          if (!(err instanceof RangeError)) throw err;
        }
      }
      values.set(o, copy);
    }
  }
  const release = releaseLists(kept, (n) => graphOutputs.has(n) || isConstant(n) || values.has(n));
  return { steps: kept, release, folded: values, tensors };
}

/** Key of a feed set's dims, in graph input order: plans are cached under it. */
export function dimsKey(dims: readonly (readonly number[])[]): string {
  return dims.map((d) => d.join('x')).join('|');
}
