/**
 * fp16 variant of a generated graph, the way onnxconverter-common's
 * `convert_float_to_float16(keep_io_types=True)` writes transformers.js
 * `model_fp16.onnx`: every float weight and constant becomes float16, casts
 * to float become casts to float16, and float graph outputs are cast back to
 * float32 so callers read the same dtype. Values too small for fp16 (the
 * LayerNorm epsilon 1e-12) are clamped to ±1e-7 rather than flushed to zero.
 */
import { DT, dimsOf, floatValues, intAttr, node, rawTensor, tagVariant, type ModelProto, type TensorProto } from './variant-graph.js';

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

/** A FLOAT tensor converted to FLOAT16, same name and dims. */
export function toFloat16Tensor(t: TensorProto): TensorProto {
  const values = floatValues(t);
  const bytes = new Uint8Array(values.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setUint16(i * 2, float16Bits(clampForFp16(values[i] as number)), true);
  return rawTensor(t.name ?? '', DT.FLOAT16, dimsOf(t), bytes);
}

/** Rewrites `model` (decoded fp32 generated graph) to fp16 in place. */
export function convertToFloat16(model: ModelProto): ModelProto {
  const graph = model.graph;
  if (!graph) throw new Error('ONNX model has no graph');
  graph.initializer = (graph.initializer ?? []).map((t) => (t.dataType === DT.FLOAT ? toFloat16Tensor(t) : t));
  for (const n of graph.node ?? []) {
    for (const a of n.attribute ?? []) {
      if (n.opType === 'Constant' && a.t && a.t.dataType === DT.FLOAT) a.t = toFloat16Tensor(a.t);
      if (n.opType === 'Cast' && a.name === 'to' && Number(a.i) === DT.FLOAT) a.i = DT.FLOAT16;
    }
  }
  if ((graph.input ?? []).some((v) => v.type?.tensorType?.elemType === DT.FLOAT)) {
    throw new Error('fp16 conversion of graphs with float inputs is not implemented (generated graphs take int64 ids)');
  }
  // keep_io_types: the producer of each float output now writes `<out>_fp16`, and a Cast restores `<out>` in float32.
  for (const out of graph.output ?? []) {
    if (out.type?.tensorType?.elemType !== DT.FLOAT) continue;
    const name = out.name ?? '';
    const producer = (graph.node ?? []).find((n) => (n.output ?? []).includes(name));
    if (!producer) continue;
    producer.output = (producer.output ?? []).map((o) => (o === name ? `${name}_fp16` : o));
    const cast = node('Cast', `/graph_output_cast/${name}`, [`${name}_fp16`], [name], [intAttr('to', DT.FLOAT)]);
    graph.node = [...(graph.node ?? []), cast];
  }
  tagVariant(model, 'fp16', 'float weights and constants stored as float16; outputs cast back to float32');
  return model;
}
