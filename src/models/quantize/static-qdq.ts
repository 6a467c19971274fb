/**
 * Static 8-bit quantization in QDQ form (what `quantize_static(...,
 * quant_format=QDQ)` writes and Intel's INT8 numbers measured): each linear
 * layer's activation goes through QuantizeLinear → DequantizeLinear with a
 * scale and zero point fixed from calibration (uint8, asymmetric), and its
 * weight is stored 8-bit per output channel behind a DequantizeLinear;
 * embedding tables are stored 8-bit and only the rows gathered are
 * dequantized.
 * onnxruntime fuses DQ → MatMul/Gemm (→ Q) into integer kernels
 * (MatMulIntegerToFloat, QGemm, QLinearMatMul) at load, so unlike dynamic
 * quantization no range is measured per call.
 *
 * Per-channel DequantizeLinear needs opset 13 (`axis`); on older graphs the
 * weight's DequantizeLinear is onnxruntime's `com.microsoft` one, which has
 * `axis` at every opset and which its QDQ fusion recognises too.
 */
import type { GraphIndex } from './graph-index.js';
import { linearOps, weightMatrix, type LinearOp } from './matmul-weights.js';
import { DT, defaultOpset, ensureOpset, intAttr, node, rawTensor, type NodeProto, type TensorProto } from '../../core/onnx/onnx-file.js';
import { gatherTable, gemmToMatMul, quantizeTable, type Quantized } from './dynamic-int8.js';
import { quantizeColumns, quantizeTensor, quantParams, zeroPointBytes, type Int8Kind } from './quant-math.js';

/** Observed range of one activation over the calibration rows. */
export interface ActivationRange {
  readonly min: number;
  readonly max: number;
}

export interface StaticQdqOptions {
  readonly dir: string;
  /** Weight encoding; uint8 by default (u8u8 kernels do not saturate on AVX2 machines without VNNI). */
  readonly weights?: Int8Kind;
}

/** Rewrites the graph in place; returns the layers quantized (those whose activation has a range). */
export function quantizeStaticQdq(index: GraphIndex, ranges: ReadonlyMap<string, ActivationRange>, options: StaticQdqOptions): LinearOp[] {
  const kind = options.weights ?? 'uint8';
  const perChannelDomain = defaultOpset(index.model) >= 13 ? '' : 'com.microsoft';
  if (perChannelDomain) ensureOpset(index.model, 'com.microsoft', 1);
  // As quantize_dynamic does: the pooler and classifier Gemms become MatMul + Add, which onnxruntime fuses into integer kernels.
  gemmToMatMul(index, options.dir);
  const layers = linearOps(index).filter((op) => op.kind !== 'gemm' && ranges.has(op.activation));
  const byNode = new Map(layers.map((op) => [op.node, op]));
  const added: TensorProto[] = [];
  const activations = new Map<string, string>();
  const weights = new Map<string, string>();
  const nodes: NodeProto[] = [];
  const constant = (name: string, dataType: number, dims: number[], bytes: Uint8Array): string => {
    const fresh = index.freshName(name);
    added.push(rawTensor(fresh, dataType, dims, bytes));
    return fresh;
  };
  const qdqActivation = (name: string): string => {
    const known = activations.get(name);
    if (known) return known;
    const range = ranges.get(name) as ActivationRange;
    const p = quantParams(range.min, range.max, 'uint8');
    const scale = constant(`${name}_scale`, DT.FLOAT, [], new Uint8Array(Float32Array.of(p.scale).buffer));
    const zp = constant(`${name}_zero_point`, DT.UINT8, [], Uint8Array.of(p.zeroPoint));
    const q = index.freshName(`${name}_QuantizeLinear_Output`);
    const dq = index.freshName(`${name}_DequantizeLinear_Output`);
    nodes.push(node('QuantizeLinear', index.freshName(`${name}_QuantizeLinear`), [name, scale, zp], [q]));
    nodes.push(node('DequantizeLinear', index.freshName(`${name}_DequantizeLinear`), [q, scale, zp], [dq]));
    activations.set(name, dq);
    return dq;
  };
  const dqWeight = (op: LinearOp): string => {
    const key = `${op.weight}|${op.kind}`;
    const known = weights.get(key);
    if (known) return known;
    // A constant in A's place is uint8 whatever the weight type: onnxruntime's fused integer kernels take only uint8 A.
    const k: Int8Kind = op.kind === 'matmul-a' ? 'uint8' : kind;
    const zpType = k === 'int8' ? DT.INT8 : DT.UINT8;
    const values = weightMatrix(index, op, options.dir);
    let q: Int8Array | Uint8Array;
    let scales: Float32Array;
    let zeroPoints: Int32Array;
    let axis: number | null = null;
    if (op.kind === 'matmul-a') {
      // MatMul's A side has no per-channel axis the fused kernels take: one scale.
      const t = quantizeTensor(values, k);
      ({ q } = t);
      scales = Float32Array.of(t.params.scale);
      zeroPoints = Int32Array.of(t.params.zeroPoint);
    } else {
      ({ q, scales, zeroPoints } = quantizeColumns(values, op.rows, op.cols, k));
      axis = 1;
    }
    const shape = axis === null ? [] : [scales.length];
    const wq = constant(`${op.weight}_quantized`, zpType, [op.rows, op.cols], new Uint8Array(q.buffer, q.byteOffset, q.byteLength));
    const scale = constant(`${op.weight}_scale`, DT.FLOAT, shape, new Uint8Array(scales.buffer));
    const zp = constant(`${op.weight}_zero_point`, zpType, shape, zeroPointBytes(zeroPoints, k));
    const out = index.freshName(`${op.weight}_DequantizeLinear_Output`);
    const attrs = axis === null ? [] : [intAttr('axis', axis)];
    nodes.push(node('DequantizeLinear', index.freshName(`${op.weight}_DequantizeLinear`), [wq, scale, zp], [out], attrs, axis === null ? '' : perChannelDomain));
    weights.set(key, out);
    return out;
  };
  const tables = new Map<string, Quantized>();
  for (const n of index.nodes) {
    const table = gatherTable(index, n);
    if (table) {
      // Embeddings: Gather reads the 8-bit table and only the gathered rows are dequantized.
      let q = tables.get(table.name ?? '');
      if (!q) {
        q = quantizeTable(table, options.dir, constant);
        tables.set(table.name ?? '', q);
      }
      const out = n.output?.[0] ?? '';
      const rows = index.freshName(`${out}_quantized`);
      nodes.push({ ...n, input: [q.q, ...(n.input ?? []).slice(1)], output: [rows] });
      nodes.push(node('DequantizeLinear', index.freshName(`${out}_DequantizeLinear`), [rows, q.scale, q.zeroPoint], [out]));
      continue;
    }
    const op = byNode.get(n);
    if (!op) {
      nodes.push(n);
      continue;
    }
    const w = dqWeight(op);
    const x = qdqActivation(op.activation);
    const inputs = [...(n.input ?? [])];
    if (op.kind === 'matmul-a') {
      inputs[0] = w;
      inputs[1] = x;
    } else {
      inputs[0] = x;
      inputs[1] = w;
    }
    nodes.push({ ...n, input: inputs });
  }
  index.graph.node = nodes;
  index.addInitializers(added);
  index.dropUnusedInitializers();
  return layers;
}
