/**
 * 8-bit variant of a generated graph in ONNX Runtime `quantize_dynamic`'s
 * form (what transformers.js ships as `model_quantized.onnx`): each MatMul by
 * a weight becomes DynamicQuantizeLinear → MatMulInteger → Cast → Mul by the
 * two scales, with 8-bit weights (int8, or uint8 around 128) quantized per
 * output column; each embedding
 * Gather reads an int8 table and dequantizes the rows it gathered. Only
 * standard-domain ops (opset ≥ 11), which onnxruntime's CPU and wasm builds run.
 */
import {
  DT,
  dimsOf,
  floatTensor,
  floatValues,
  initializerMap,
  int8Tensor,
  intAttr,
  node,
  quantizeColumnsInt8,
  quantizeTensorInt8,
  readerCounts,
  tagVariant,
  uint8Tensor,
  type ModelProto,
  type NodeProto,
  type TensorProto,
} from './variant-graph.js';

/** Weight zero points: int8 symmetric (all 0), or uint8 with 128 for the `uint8` dtype. */
export type WeightType = 'int8' | 'uint8';

function weightTensors(name: string, values: Float32Array, k: number, n: number, type: WeightType): { w: TensorProto; zp: TensorProto; scales: Float32Array } {
  const { q, scales } = quantizeColumnsInt8(values, k, n);
  if (type === 'int8') return { w: int8Tensor(`${name}_quantized`, [k, n], q), zp: int8Tensor(`${name}_zero_point`, [n], new Int8Array(n)), scales };
  const u = new Uint8Array(q.length);
  for (let i = 0; i < q.length; i++) u[i] = (q[i] as number) + 128;
  return { w: uint8Tensor(`${name}_quantized`, [k, n], u), zp: uint8Tensor(`${name}_zero_point`, [n], new Uint8Array(n).fill(128)), scales };
}

/** Rewrites `model` (decoded fp32 generated graph) to dynamic int8 quantization in place. */
export function quantizeDynamicInt8(model: ModelProto, type: WeightType = 'int8', dtype: string = type): ModelProto {
  const graph = model.graph;
  if (!graph) throw new Error('ONNX model has no graph');
  const inits = initializerMap(graph);
  const readers = readerCounts(graph);
  const added: TensorProto[] = [];
  const replaced = new Set<string>();
  /** DynamicQuantizeLinear outputs per activation, shared by the Q, K and V projections of one input. */
  const quantizedInputs = new Map<string, [string, string, string]>();
  const nodes: NodeProto[] = [];

  const dropIfUnused = (name: string): void => {
    const left = (readers.get(name) ?? 1) - 1;
    readers.set(name, left);
    if (left === 0) replaced.add(name);
  };

  for (const n of graph.node ?? []) {
    const [a = '', b = ''] = n.input ?? [];
    const weight = inits.get(b);
    const base = n.name || `${n.opType}_${nodes.length}`;
    if (n.opType === 'MatMul' && weight && weight.dataType === DT.FLOAT && dimsOf(weight).length === 2 && !inits.has(a)) {
      const [k = 0, cols = 0] = dimsOf(weight);
      const { w, zp, scales } = weightTensors(b, floatValues(weight), k, cols, type);
      const scaleName = `${b}_scale`;
      added.push(w, zp, floatTensor(scaleName, [cols], scales));
      let q = quantizedInputs.get(a);
      if (!q) {
        q = [`${a}_quantized`, `${a}_scale`, `${a}_zero_point`];
        nodes.push(node('DynamicQuantizeLinear', `${a}_QuantizeLinear`, [a], q));
        quantizedInputs.set(a, q);
      }
      const out = n.output?.[0] ?? `${base}_output_0`;
      nodes.push(node('MatMulInteger', `${base}_quant`, [q[0], w.name ?? '', q[2], zp.name ?? ''], [`${out}_int32`]));
      nodes.push(node('Cast', `${base}_quant_cast`, [`${out}_int32`], [`${out}_float`], [intAttr('to', DT.FLOAT)]));
      nodes.push(node('Mul', `${base}_quant_scales_mul`, [q[1], scaleName], [`${out}_scale`]));
      nodes.push(node('Mul', `${base}_quant_output_scale_mul`, [`${out}_float`, `${out}_scale`], [out]));
      dropIfUnused(b);
      continue;
    }
    const table = inits.get(a);
    if (n.opType === 'Gather' && table && table.dataType === DT.FLOAT && dimsOf(table).length === 2) {
      const { q, scale } = quantizeTensorInt8(floatValues(table));
      const tableName = `${a}_quantized`;
      if (!added.some((t) => t.name === tableName)) {
        added.push(int8Tensor(tableName, dimsOf(table), q), floatTensor(`${a}_scale`, [], Float32Array.of(scale)), int8Tensor(`${a}_zero_point`, [], new Int8Array(1)));
      }
      const out = n.output?.[0] ?? `${base}_output_0`;
      nodes.push(node('Gather', `${base}_quant`, [tableName, b], [`${out}_quantized`], [...(n.attribute ?? [])]));
      nodes.push(node('DequantizeLinear', `${base}_dequantize`, [`${out}_quantized`, `${a}_scale`, `${a}_zero_point`], [out]));
      dropIfUnused(a);
      continue;
    }
    nodes.push(n);
  }
  graph.node = nodes;
  graph.initializer = [...(graph.initializer ?? []).filter((t) => !replaced.has(t.name ?? '')), ...added];
  tagVariant(model, dtype, `dynamic ${type} quantization: MatMulInteger with per-column ${type} weights, int8 embedding tables`);
  return model;
}
