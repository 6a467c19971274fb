/**
 * 4-bit variant of a generated graph in the form transformers.js ships as
 * `model_q4.onnx`: each MatMul by a weight becomes ONNX Runtime's
 * `com.microsoft.MatMulNBits` (bits 4, block 32, symmetric, default zero
 * point 8), which dequantizes blocks of the packed weight on the fly.
 * Embedding tables and every other op stay fp32, so on a small model the
 * embeddings dominate the file size.
 */
import { DT, dimsOf, ensureOpset, floatTensor, floatValues, initializerMap, intAttr, node, readerCounts, tagVariant, uint8Tensor, type ModelProto, type NodeProto, type TensorProto } from './variant-graph.js';

/** Elements per quantization block along K; ORT requires a power of two ≥ 16. */
export const Q4_BLOCK_SIZE = 32;

/**
 * Packs a [K, N] weight as MatMulNBits expects: for each output column n and
 * block b, `block/2` bytes, element j in the low nibble when j is even.
 * Values are round(w / scale) + 8 in 0..15 with scale = max|block| / 7.
 */
export function packInt4Columns(values: Float32Array, k: number, n: number, block = Q4_BLOCK_SIZE): { packed: Uint8Array; scales: Float32Array; blocks: number } {
  const blocks = Math.ceil(k / block);
  const blob = block / 2;
  const packed = new Uint8Array(n * blocks * blob);
  const scales = new Float32Array(n * blocks);
  for (let col = 0; col < n; col++) {
    for (let b = 0; b < blocks; b++) {
      let max = 0;
      for (let j = 0; j < block; j++) {
        const row = b * block + j;
        if (row < k) max = Math.max(max, Math.abs(values[row * n + col] as number));
      }
      const scale = max > 0 ? max / 7 : 1;
      scales[col * blocks + b] = scale;
      for (let j = 0; j < block; j++) {
        const row = b * block + j;
        const w = row < k ? (values[row * n + col] as number) : 0;
        const q = Math.max(0, Math.min(15, Math.round(w / scale) + 8));
        const at = (col * blocks + b) * blob + (j >> 1);
        packed[at] = (packed[at] as number) | (q << ((j & 1) * 4));
      }
    }
  }
  return { packed, scales, blocks };
}

/** Rewrites `model` (decoded fp32 generated graph) to 4-bit weight-only MatMulNBits in place. */
export function quantizeMatMulNBits(model: ModelProto, block = Q4_BLOCK_SIZE): ModelProto {
  const graph = model.graph;
  if (!graph) throw new Error('ONNX model has no graph');
  const inits = initializerMap(graph);
  const readers = readerCounts(graph);
  const added: TensorProto[] = [];
  const replaced = new Set<string>();
  const nodes: NodeProto[] = [];
  for (const n of graph.node ?? []) {
    const [a = '', b = ''] = n.input ?? [];
    const weight = inits.get(b);
    if (n.opType !== 'MatMul' || !weight || weight.dataType !== DT.FLOAT || dimsOf(weight).length !== 2 || inits.has(a)) {
      nodes.push(n);
      continue;
    }
    const [k = 0, cols = 0] = dimsOf(weight);
    const { packed, scales, blocks } = packInt4Columns(floatValues(weight), k, cols, block);
    added.push(uint8Tensor(`${b}_Q4`, [cols, blocks, block / 2], packed), floatTensor(`${b}_scales`, [cols * blocks], scales));
    const name = n.name || `MatMul_${nodes.length}`;
    nodes.push(
      node(
        'MatMulNBits',
        `${name}_Q4`,
        [a, `${b}_Q4`, `${b}_scales`],
        [...(n.output ?? [])],
        [intAttr('K', k), intAttr('N', cols), intAttr('bits', 4), intAttr('block_size', block)],
        'com.microsoft',
      ),
    );
    const left = (readers.get(b) ?? 1) - 1;
    readers.set(b, left);
    if (left === 0) replaced.add(b);
  }
  graph.node = nodes;
  graph.initializer = [...(graph.initializer ?? []).filter((t) => !replaced.has(t.name ?? '')), ...added];
  ensureOpset(model, 'com.microsoft', 1);
  tagVariant(model, 'q4', `MatMulNBits (com.microsoft): 4-bit symmetric weights, block ${block}; embeddings and other ops fp32`);
  return model;
}
