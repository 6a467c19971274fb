/**
 * What one ONNX node's lowering to TensorFlow ops sees: its inputs as TF
 * tensors (reference, dtype, rank, constant value when known), its
 * attributes, the ranks and dtypes its outputs must have, and the builder
 * it adds nodes to.
 */
import type { OnnxNode, OnnxTensor } from '../../core/onnx/onnx-decode.js';
import type { NodeAttributes } from '../../core/onnx/onnx-graph.js';
import { FormatRefused } from '../../core/model-formats.js';
import { type TfDataType, type TfExportTarget, type TfGraphBuilder } from './tf-graph.js';

/** An ONNX value once lowered: the TF tensor holding it. */
export interface TfValue {
  /** `node` or `node:k`. */
  readonly ref: string;
  readonly dtype: TfDataType;
  /** Rank measured by the probe (rank-probe.ts); null where it could not be. */
  readonly rank: number | null;
  /** The value itself when it is an initializer or a Constant node's output. */
  readonly constant?: OnnxTensor;
}

/**
 * Why a graph cannot be exported: an op with no TF mapping (naming op and
 * node), a quantized graph, a dtype TF formats here do not hold. Callers
 * show it as the reason; it is never a crash. A `FormatRefused`, so a
 * model asked for a tfjs format skips the cell with it.
 */
export class ExportRefused extends FormatRefused {
  override readonly name: string = 'ExportRefused';
}

export interface LowerContext {
  readonly node: OnnxNode;
  readonly b: TfGraphBuilder;
  readonly attrs: NodeAttributes;
  readonly opset: number;
  readonly target: TfExportTarget;
  /** Dtype of shape and index tensors: int64 in a SavedModel, int32 in a GraphModel. */
  readonly index: TfDataType;
  /** Input `i`; an error naming the node when it is missing. */
  input(i: number): TfValue;
  /** Input `i`, or undefined when the node omits it. */
  optional(i: number): TfValue | undefined;
  /** Integer values of input `i` when it is constant, else undefined (a dynamic input). */
  constInts(i: number): number[] | undefined;
  /** Integer values input `i` had on the probe run (rank-probe.ts), constant or not: a computed shape's length and entries there. */
  probedInts(i: number): readonly number[] | undefined;
  /** Rank of output `j`. */
  outRank(j: number): number;
  /** TF dtype of output `j`. */
  outDtype(j: number): TfDataType;
  /** A Const node of an ONNX tensor the lowering derived (a pre-transposed weight), written by the target's dtype rules. */
  constantOf(t: OnnxTensor): string;
  /**
   * A tensor made once per graph under `key` (the leading dims of a
   * MatMul input several projections read): later lowerings reuse it.
   */
  shared(key: string, make: () => string): string;
  /** The constant 1-D bias an `Add` after this MatMul adds, folded into it by the converter (onnx-to-tf.ts); undefined otherwise. */
  readonly bias?: TfValue;
  /** A node-name hint under this node's name. */
  hint(suffix?: string): string;
}

/** A lowering returns one TF reference per ONNX output. */
export type Lowering = (x: LowerContext) => string[];

/** `values` of a constant ONNX tensor as JS numbers (int64 included); undefined for a missing one. */
export function tensorInts(t: OnnxTensor | undefined): number[] | undefined {
  return t === undefined ? undefined : Array.from(t.data as ArrayLike<number | bigint>, Number);
}

/** A non-negative axis for `rank`, refusing one out of range with the node's name. */
export function axisOf(x: LowerContext, axis: number, rank: number): number {
  const a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= Math.max(rank, 1)) throw new ExportRefused(`ONNX node ${x.node.name} (${x.node.opType}): axis ${axis} is out of range for rank ${rank}`);
  return a;
}

/** The rank of input `i`, refusing when the probe could not measure it. */
export function rankOf(x: LowerContext, i: number): number {
  const r = x.input(i).rank;
  if (r === null) throw new ExportRefused(`ONNX node ${x.node.name} (${x.node.opType}): the rank of input ${i} is unknown`);
  return r;
}

/** The `T` attr most TF ops take, from input `i`'s dtype. */
export function tAttr(x: LowerContext, i = 0): { T: { kind: 'type'; value: TfDataType } } {
  return { T: { kind: 'type', value: x.input(i).dtype } };
}

/** Casts `v` to `dtype` unless it already is. */
export function castTo(x: LowerContext, v: TfValue, dtype: TfDataType, suffix: string): string {
  if (v.dtype === dtype) return v.ref;
  return x.b.op('Cast', [v.ref], { SrcT: { kind: 'type', value: v.dtype }, DstT: { kind: 'type', value: dtype }, Truncate: { kind: 'b', value: false } }, x.hint(suffix));
}

/** A constant-or-dynamic int input as an `x.index` tensor (Slice starts, Reshape shapes, Range bounds). */
export function asIndex(x: LowerContext, i: number, suffix: string): string {
  return castTo(x, x.input(i), x.index, suffix);
}
