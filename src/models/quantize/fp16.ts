/**
 * fp16 variant, the way onnxconverter-common's
 * `convert_float_to_float16(keep_io_types=True)` writes transformers.js
 * `model_fp16.onnx`: every float weight and constant becomes float16, casts
 * to float become casts to float16, float graph inputs are cast to float16
 * on the way in (GPT-2's past key values) and float graph outputs are cast
 * back to float32 on the way out, so callers feed and read the same dtypes.
 * Values too small for fp16 (the LayerNorm epsilon 1e-12) are clamped to
 * ±1e-7 rather than flushed to zero, and values too large (the attention
 * mask's float32 minimum) to ±65504. onnxruntime's CPU provider computes ops
 * without a float16 kernel in float32, inserting the casts itself.
 */
import type { GraphIndex } from './graph-index.js';
import { DT, dimsOf, elementCount, floatValues, intAttr, node, rawTensor, type AttributeProto, type NodeProto, type TensorProto } from '../../core/onnx/onnx-file.js';

/** Smallest magnitude kept, as onnxconverter-common's `min_positive_val`. */
const MIN_POSITIVE = 1e-7;
/** Largest fp16 value; larger magnitudes clamp to it, as `max_finite_val` does. */
const MAX_FINITE = 65504;

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE-754 binary16 bits of `value`, rounded to nearest even. */
export function float16Bits(value: number): number {
  f32[0] = value;
  const x = u32[0] as number;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0); // Inf / NaN
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00; // overflow → Inf
  if (e <= 0) {
    if (e < -10) return sign; // underflow → ±0
    mant |= 0x800000;
    const shift = 14 - e;
    const half = 1 << (shift - 1);
    let m = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    if (rest > half || (rest === half && (m & 1))) m++;
    return sign | m;
  }
  let m = mant >>> 13;
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (m & 1))) {
    m++;
    if (m === 0x400) {
      m = 0;
      e++;
      if (e >= 0x1f) return sign | 0x7c00;
    }
  }
  return sign | (e << 10) | m;
}

function clampForFp16(v: number): number {
  if (v === 0 || Number.isNaN(v)) return v;
  const a = Math.abs(v);
  if (a < MIN_POSITIVE) return Math.sign(v) * MIN_POSITIVE;
  if (a > MAX_FINITE) return Math.sign(v) * MAX_FINITE;
  return v;
}

/** Float16 bytes of float32 values. */
function halfBytes(values: Float32Array): Uint8Array {
  const half = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) half[i] = float16Bits(clampForFp16(values[i] as number));
  return new Uint8Array(half.buffer);
}

/** A FLOAT tensor converted to FLOAT16, same name and dims. */
export function toFloat16Tensor(t: TensorProto, dir: string): TensorProto {
  return rawTensor(t.name ?? '', DT.FLOAT16, dimsOf(t), halfBytes(elementCount(t) === 0 ? new Float32Array() : floatValues(t, dir)));
}

/** Constant's attributes: float tensors (and value_float/value_floats) as float16 tensors. */
function constantAttributes(attrs: readonly AttributeProto[], dir: string): AttributeProto[] {
  return attrs.map((a) => {
    if (a.name === 'value' && a.t && a.t.dataType === DT.FLOAT) return { ...a, t: toFloat16Tensor(a.t, dir) };
    if (a.name === 'value_float') return { name: 'value', type: 4, t: rawTensor('', DT.FLOAT16, [], halfBytes(Float32Array.of(Number(a.f ?? 0)))) };
    if (a.name === 'value_floats') {
      const values = Float32Array.from(a.floats ?? []);
      return { name: 'value', type: 4, t: rawTensor('', DT.FLOAT16, [values.length], halfBytes(values)) };
    }
    return a;
  });
}

/** Rewrites the graph to fp16 in place. */
export function convertToFloat16(index: GraphIndex, dir: string): void {
  const graph = index.graph;
  graph.initializer = (graph.initializer ?? []).map((t) => (t.dataType === DT.FLOAT ? toFloat16Tensor(t, dir) : t));
  for (const n of index.nodes) {
    if ((n.opType === 'Constant' || n.opType === 'ConstantOfShape') && (n.domain ?? '') === '') n.attribute = constantAttributes(n.attribute ?? [], dir);
    for (const a of n.attribute ?? []) if (n.opType === 'Cast' && a.name === 'to' && Number(a.i) === DT.FLOAT) a.i = DT.FLOAT16;
  }
  // Shape hints of intermediate values follow the new element type.
  for (const v of graph.valueInfo ?? []) {
    const tensor = v.type?.tensorType;
    if (tensor && tensor.elemType === DT.FLOAT) tensor.elemType = DT.FLOAT16;
  }
  const renameReads = (from: string, to: string): void => {
    for (const n of index.nodes) n.input = (n.input ?? []).map((i) => (i === from ? to : i));
  };
  // keep_io_types, inputs: a Cast to float16 right after each float input.
  const head: NodeProto[] = [];
  for (const input of graph.input ?? []) {
    if (input.type?.tensorType?.elemType !== DT.FLOAT || index.initializers.has(input.name ?? '')) continue;
    const name = input.name ?? '';
    const half = index.freshName(`${name}_fp16`);
    renameReads(name, half);
    head.push(node('Cast', index.freshName(`/graph_input_cast/${name}`), [name], [half], [intAttr('to', DT.FLOAT16)]));
  }
  // keep_io_types, outputs: the producer of each float output now writes `<out>_fp16`, and a Cast restores `<out>` in float32.
  const tail: NodeProto[] = [];
  for (const out of graph.output ?? []) {
    if (out.type?.tensorType?.elemType !== DT.FLOAT) continue;
    const name = out.name ?? '';
    const producer = index.nodes.find((n) => (n.output ?? []).includes(name));
    if (!producer) continue;
    const half = index.freshName(`${name}_fp16`);
    producer.output = (producer.output ?? []).map((o) => (o === name ? half : o));
    renameReads(name, half);
    tail.push(node('Cast', index.freshName(`/graph_output_cast/${name}`), [half], [name], [intAttr('to', DT.FLOAT)]));
  }
  graph.node = [...head, ...index.nodes, ...tail];
}
